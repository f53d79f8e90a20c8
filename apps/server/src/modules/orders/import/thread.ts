/**
 * Where an order import runs (decision 0093): on a worker thread with database connections of its
 * own (worker.ts), so the request thread keeps answering the other users meanwhile.
 *
 * On SQLite an import of 40,000 rows on the request thread held the one connection and the
 * event loop for seconds (better-sqlite3 is synchronous), and every other request waited for it:
 * the order list ~6 s, even a health check ~1.5 s. On the worker's own connection, the request
 * thread keeps reading (WAL: readers see the last commit, never the import half done), and its
 * writes wait for the import's lock without stopping the thread (db/sqlite-locking.ts SqliteWriteGate),
 * at most the busy timeout, then answer 503 as a busy database does. On PostgreSQL and MySQL the
 * pool answered the others, but parsing and checking the rows still held the event loop for
 * half a second and more at a time: the worker has a pool of its own, with the same budgets.
 *
 * One worker per database, started at the first import and kept for the next (starting one
 * costs tens of milliseconds bundled, a second or more under the TypeScript loader); imports
 * queue on it. It is stopped with the app (stopImportThread); a worker that ends mid-import
 * fails that import (500), and its open transaction is dropped by the database: nothing half
 * written. An in-memory SQLite database (no file to share) imports on the request thread.
 */
import type { Worker } from 'node:worker_threads';
import type { OrderImportResult } from '@clearplay/contract';
import type { DbLimits, DbTarget } from '../../../config.ts';
import { sqliteFileOf, sqliteWriteGate, type SqliteWriteGate } from '../../../db/sqlite-locking.ts';
import type { Db } from '../../../db/index.ts';
import type { Operator } from '../../../http/route-context.ts';
import { AppError, FieldAppError } from '../../../lib/errors.ts';
import type { Locale, MessageKey, MessageParams } from '../../../lib/messages.ts';
import { startModuleWorker } from '../../../lib/module-worker.ts';
import type { Guard } from '../../idempotency/idempotency.service.ts';
import { importOrders } from './orders.import.ts';
import { readSheet } from './read.ts';
import type { ImportAnswer, ImportJob, ImportWorkerData, ThreadError } from './worker.ts';

/** The worker's entry: worker.ts, or its bundle dist/import-worker.js in the build (lib/module-worker.ts). */
function startWorker(target: DbTarget, limits: DbLimits): Worker {
  const workerData: ImportWorkerData = { target, limits };
  return startModuleWorker(new URL('./worker.ts', import.meta.url), 'import-worker.js', { workerData });
}

interface Pending {
  resolve: (result: OrderImportResult) => void;
  reject: (error: unknown) => void;
  /** Gives SQLite's write lock back to the request thread's writers (nothing elsewhere). */
  release: () => void;
}

class ImportThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #ended = false;

  constructor(
    target: DbTarget,
    limits: DbLimits,
    private readonly gate: SqliteWriteGate | null,
    private readonly onEnd: () => void,
  ) {
    this.#worker = startWorker(target, limits);
    // Never what keeps a process alive: the request waiting for it does, while there is one.
    this.#worker.unref();
    this.#worker.on('message', (answer: ImportAnswer) => {
      const pending = this.#pending.get(answer.id);
      if (pending === undefined) return;
      this.#pending.delete(answer.id);
      pending.release();
      if (answer.ok) pending.resolve(answer.result as OrderImportResult);
      else pending.reject(rebuilt(answer.error));
    });
    let failure: unknown = null;
    this.#worker.on('error', (error) => (failure = error));
    this.#worker.on('exit', () => this.#end(failure ?? new Error('the order import thread stopped')));
  }

  get ended(): boolean {
    return this.#ended;
  }

  run(data: Buffer, op: Operator, locale: Locale, keepValid: boolean, guard: Guard | null): Promise<OrderImportResult> {
    const id = ++this.#next;
    // A copy the worker takes over (the upload's buffer may share memory with others).
    const bytes = new Uint8Array(data);
    return new Promise<OrderImportResult>((resolve, reject) => {
      // Lent from now on: the worker takes the lock as soon as it reads the file's first rows.
      this.#pending.set(id, { resolve, reject, release: this.gate?.hold() ?? (() => undefined) });
      const job: ImportJob = {
        id,
        data: bytes,
        op: { id: op.id, username: op.username, permissions: [...op.permissions] },
        locale,
        keepValid,
        guard,
      };
      this.#worker.postMessage(job, [bytes.buffer]);
    });
  }

  #end(error: unknown): void {
    this.#ended = true;
    this.onEnd();
    for (const pending of this.#pending.values()) {
      pending.release();
      pending.reject(error);
    }
    this.#pending.clear();
  }

  async stop(): Promise<void> {
    await this.#worker.terminate();
  }
}

/** A worker's error as the request thread's: a domain error answers as it would have here. */
function rebuilt(error: ThreadError): Error {
  if (error.kind === 'app') {
    const key = error.key as MessageKey;
    const params = error.params as MessageParams;
    return error.field === undefined
      ? new AppError(error.status, key, params, error.data)
      : new FieldAppError(error.status, error.field, key, params);
  }
  const rebuiltError = Object.assign(new Error(error.message), error.code === undefined ? {} : { code: error.code });
  rebuiltError.name = error.name;
  if (error.stack !== undefined) rebuiltError.stack = error.stack;
  return rebuiltError;
}

const threads = new WeakMap<Db, ImportThread>();

/** Where the worker connects: the configured database, or this SQLite file; null for an in-memory SQLite database. */
function workerTarget(db: Db, configured: DbTarget): DbTarget | null {
  if (configured.dialect !== 'sqlite') return configured;
  const file = sqliteFileOf(db);
  return file === null ? null : { dialect: 'sqlite', file };
}

/**
 * Imports an uploaded sheet (import/read.ts, then orders.import.ts importOrders) on the import's
 * worker thread; `database` is where `db` connects, with its budgets. `guard`: the request's
 * Idempotency-Key, claimed in the import's transaction (idempotency.service.ts onceApart).
 */
export async function importSheetFile(
  db: Db,
  database: { target: DbTarget; limits: DbLimits },
  data: Buffer,
  op: Operator,
  locale: Locale,
  keepValid: boolean,
  guard: Guard | null = null,
): Promise<OrderImportResult> {
  const target = workerTarget(db, database.target);
  if (target === null || db.isTransaction) return importOrders(db, await readSheet(data), op, locale, keepValid, guard);
  let thread = threads.get(db);
  if (thread === undefined || thread.ended) {
    const started: ImportThread = new ImportThread(target, database.limits, sqliteWriteGate(db), () => {
      if (threads.get(db) === started) threads.delete(db);
    });
    thread = started;
    threads.set(db, thread);
  }
  return thread.run(data, op, locale, keepValid, guard);
}

/** Stops the import thread of this database, if one runs: an import under way fails and writes nothing. */
export async function stopImportThread(db: Db): Promise<void> {
  const thread = threads.get(db);
  threads.delete(db);
  await thread?.stop();
}
