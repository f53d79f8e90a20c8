// The floors under the upload bench (decision 0079): the least a Node HTTP host can do to take
// a file in the provider's 4 MB parts. node:http, no framework, no token, no staging records,
// no checks. `PUT /part/<upload>/<n>` writes its body at offset (n − 1) × 4 MB of the upload's
// own new file (opened per part, created if missing, never truncated), as the embedded host does; FLOOR_HASH=1 also passes every byte through MD5 and SHA-1 on worker
// threads (one per core, 1 MB transferred buffers, the embedded host's scheme) and answers
// both, as a host speaking the provider's protocol must; FLOOR_HASH=0 only writes.
import { constants, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const PART = 4 * 1024 * 1024;
const SLOT = 1024 * 1024;
const hashing = process.env.FLOOR_HASH === '1';
const dir = mkdtempSync(join(tmpdir(), 'clearplay-floor-'));

const WORKER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const jobs = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'start') return void jobs.set(m.job, [createHash('md5'), createHash('sha1')]);
  const job = jobs.get(m.job);
  if (m.op === 'data') {
    const chunk = new Uint8Array(m.buffer, 0, m.length);
    job[0].update(chunk);
    job[1].update(chunk);
    return;
  }
  jobs.delete(m.job);
  parentPort.postMessage({ job: m.job, md5: job[0].digest('hex'), sha1: job[1].digest('hex') });
});`;

interface Pooled {
  worker: Worker;
  waiting: Map<number, (answer: object) => void>;
}
const pool: Pooled[] = hashing
  ? Array.from({ length: Math.max(1, Math.min(4, availableParallelism())) }, () => {
      const pooled: Pooled = { worker: new Worker(WORKER, { eval: true }), waiting: new Map() };
      pooled.worker.on('message', (answer: { job: number }) => {
        pooled.waiting.get(answer.job)?.(answer);
        pooled.waiting.delete(answer.job);
      });
      return pooled;
    })
  : [];
let jobs = 0;

const server = createServer((req, res) => {
  const part = /^\/part\/(\w+)\/(\d+)$/.exec(req.url ?? '');
  if (req.method !== 'PUT' || part === null) {
    res.end('{}');
    return;
  }
  void open(join(dir, part[1]!), constants.O_WRONLY | constants.O_CREAT).then((handle) =>
    take(req, res, handle.createWriteStream({ start: (Number(part[2]) - 1) * PART, highWaterMark: SLOT })),
  );
});

function take(req: IncomingMessage, res: ServerResponse, out: WriteStream): void {
  const job = ++jobs;
  const pooled = pool.length > 0 ? pool.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a)) : undefined;
  pooled?.worker.postMessage({ op: 'start', job });
  let slot: ArrayBuffer | null = null;
  let filled = 0;
  const post = () => {
    if (slot === null || filled === 0) return;
    pooled?.worker.postMessage({ op: 'data', job, buffer: slot, length: filled }, [slot]);
    slot = null;
    filled = 0;
  };
  const answered = pooled === undefined ? Promise.resolve({}) : new Promise<object>((resolve) => pooled.waiting.set(job, resolve));
  req.on('data', (chunk: Buffer) => {
    if (pooled !== undefined) {
      for (let at = 0; at < chunk.length;) {
        slot ??= new ArrayBuffer(SLOT);
        const length = Math.min(SLOT - filled, chunk.length - at);
        new Uint8Array(slot, filled, length).set(chunk.subarray(at, at + length));
        filled += length;
        at += length;
        if (filled === SLOT) post();
      }
    }
    if (!out.write(chunk)) {
      req.pause();
      out.once('drain', () => req.resume());
    }
  });
  req.on('end', () => {
    post();
    pooled?.worker.postMessage({ op: 'end', job });
    out.end(() => {
      void answered.then((answer) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer));
      });
    });
  });
}

server.listen(Number(process.env.PORT ?? 3998), '127.0.0.1');
const stop = () =>
  server.close(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
