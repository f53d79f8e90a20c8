/**
 * SQLite in WAL mode writes commits to the `-wal` file; a checkpoint copies them back into the
 * database file. By default the connection that commits runs it, inside COMMIT, once the WAL
 * holds 1,000 pages. After a bulk write (an import of 10,000 orders dirties ~120 MB of index
 * pages in a table of a million) that copy takes a quarter of a second, with the request
 * waiting and the event loop stopped for every other request. A bulk write therefore commits
 * with the automatic checkpoint off and hands the copy to a worker thread with a connection of
 * its own (`checkpointInBackground`): a PASSIVE checkpoint waits for no reader or writer, so the
 * server answers and goes on while it runs, and a crash midway is as safe as ever (the WAL keeps
 * every frame not yet copied).
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { sqliteDriverPath } from './sqlite-driver.ts';

/** The driver the worker loads: the one this server uses, wherever the install put it. */
const driver = sqliteDriverPath();

/** Plain CommonJS, so the worker starts without the TypeScript loader (tens of ms, not seconds). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
try {
  parentPort.postMessage(db.pragma('wal_checkpoint(PASSIVE)')[0]);
} finally {
  db.close();
}
`;

export interface CheckpointResult {
  /** 1 when another checkpoint held the lock (that one copies the frames instead). */
  busy: number;
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

const running = new Set<Promise<CheckpointResult | null>>();

/**
 * Copies the WAL of the SQLite database `file` into the database file on a worker thread.
 * Never rejects: a failure leaves the frames in the WAL, where the next automatic checkpoint
 * copies them. Resolves with SQLite's answer, or null when the worker could not run it.
 */
export function checkpointInBackground(file: string): Promise<CheckpointResult | null> {
  const done = new Promise<CheckpointResult | null>((resolve) => {
    let answer: CheckpointResult | null = null;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file } });
    // Never what keeps a process alive (server.ts waits for it on a clean stop; a process
    // that simply exits cuts it short, which is safe: the next checkpoint redoes it).
    worker.unref();
    worker.on('message', (message: CheckpointResult) => (answer = message));
    worker.on('error', (error) => {
      // A database removed meanwhile (a test's throwaway file) needs no checkpoint.
      if (existsSync(file))
        console.warn(`database: background checkpoint of ${file} failed (${error.message}); the next commit will run it`);
    });
    worker.on('exit', () => resolve(answer));
  });
  running.add(done);
  void done.then(() => running.delete(done));
  return done;
}

/** Resolves when every background checkpoint started so far has ended (tests, shutdown). */
export async function checkpointsSettled(): Promise<void> {
  await Promise.all([...running]);
}
