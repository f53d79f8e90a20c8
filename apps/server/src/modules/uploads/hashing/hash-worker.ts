/**
 * A hashing thread's code (hash-pool.ts starts up to four of them; decision 0072). Each job is
 * one stream: `start`, then its bytes in `data` messages in order, then `end` (or `drop`). The
 * thread keeps the stream's MD5 (when asked) and the SHA-1 of each `block` bytes (the last block
 * may be shorter), the same as QEtag in digest-stream.ts, and answers every `data` with its
 * buffer, handed back for use again, and `end` with the digests.
 */
import { createHash, type Hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

/** What the pool sends a hashing thread. */
export type HashRequest =
  | { op: 'start'; job: number; md5: boolean; block: number }
  /** The first `length` bytes of `buffer` (transferred) are the stream's next bytes. */
  | { op: 'data'; job: number; buffer: ArrayBuffer; length: number }
  | { op: 'end'; job: number }
  | { op: 'drop'; job: number };

/** What a hashing thread answers: each buffer once hashed, and a stream's digests at its end. */
export type HashReply =
  | { job: number; op: 'hashed'; bytes: number; buffer: ArrayBuffer }
  /** The MD5 in hex (empty unless asked) and each block's SHA-1. */
  | { job: number; op: 'done'; md5: string; blocks: Uint8Array[] };

interface Job {
  md5: Hash | null;
  block: Hash;
  inBlock: number;
  blocks: Buffer[];
  size: number;
}

if (parentPort === null) throw new Error('hash-worker.ts runs on a worker thread (hash-pool.ts starts it)');
const port = parentPort;
const jobs = new Map<number, Job>();

function reply(message: HashReply, transfer?: ArrayBuffer[]): void {
  port.postMessage(message, transfer);
}

port.on('message', (m: HashRequest) => {
  if (m.op === 'start') {
    jobs.set(m.job, { md5: m.md5 ? createHash('md5') : null, block: createHash('sha1'), inBlock: 0, blocks: [], size: m.block });
    return;
  }
  const job = jobs.get(m.job);
  if (m.op === 'data') {
    // A dropped job's chunks only go back.
    if (job === undefined) return reply({ job: m.job, op: 'hashed', bytes: m.length, buffer: m.buffer }, [m.buffer]);
    const chunk = new Uint8Array(m.buffer, 0, m.length);
    job.md5?.update(chunk);
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(job.size - job.inBlock, chunk.length - offset);
      job.block.update(offset === 0 && take === chunk.length ? chunk : chunk.subarray(offset, offset + take));
      job.inBlock += take;
      offset += take;
      if (job.inBlock === job.size) {
        job.blocks.push(job.block.digest());
        job.block = createHash('sha1');
        job.inBlock = 0;
      }
    }
    return reply({ job: m.job, op: 'hashed', bytes: chunk.length, buffer: m.buffer }, [m.buffer]);
  }
  if (m.op === 'end') {
    if (job === undefined) return;
    if (job.inBlock > 0 || job.blocks.length === 0) job.blocks.push(job.block.digest());
    jobs.delete(m.job);
    return reply({ job: m.job, op: 'done', md5: job.md5 === null ? '' : job.md5.digest('hex'), blocks: job.blocks });
  }
  jobs.delete(m.job);
});
