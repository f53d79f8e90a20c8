/**
 * Hashing beside the request thread (decision 0072). Every byte of an upload passes MD5 (a
 * part's answer) and SHA-1 per 4 MB block (the etag): on one thread that is most of an upload's
 * CPU, and it held the thread that also receives the body and writes it. A small pool of worker
 * threads does it instead (their code is hash-worker.ts), fed each chunk as it streams in;
 * several parts in flight hash on several threads at once.
 *
 * Bounded: a stream copies its chunks (the originals go on to the disk) into buffers of
 * SLOT_BYTES, posts each once full, and waits once more than IN_FLIGHT_MAX bytes of it are
 * posted and not yet hashed, so a slow worker holds back the request body rather than piling it
 * up in memory.
 *
 * Batched (decision 0077): a request body arrives in socket reads of up to 64 KB, and handing
 * each one to another thread (a postMessage wakes the worker; on these virtual machines a
 * wake-up costs tens of microseconds of CPU) cost more than copying it. One message per 1 MB.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../../lib/module-worker.ts';
import type { HashReply, HashRequest } from './hash-worker.ts';

/** Bytes of one stream posted to its worker and not yet hashed, past which the stream waits. */
export const IN_FLIGHT_MAX = 2 * 1024 * 1024;

/**
 * Chunks go to a worker gathered in buffers of this size, one message per buffer, which the
 * worker hands back once hashed and which are used again: the copies cost no new memory per
 * chunk, and none piles up waiting for a worker's garbage collection.
 */
export const SLOT_BYTES = 1024 * 1024;
/** Buffers kept for use again, at most (the rest are left to the collector). */
const SPARE_SLOTS_MAX = 8;
const spare: ArrayBuffer[] = [];

/** What a worker answers at the end: the MD5 (hex, empty unless asked) and each block's SHA-1. */
export interface WorkerDigests {
  md5: string;
  blocks: Buffer[];
}

interface Listener {
  hashed(bytes: number): void;
  done(digests: WorkerDigests): void;
  failed(error: Error): void;
}

class PoolWorker {
  readonly #worker: Worker;
  readonly listeners = new Map<number, Listener>();

  constructor(onExit: (worker: PoolWorker) => void) {
    // A small heap: a worker holds hash states and the chunk it is hashing, nothing more.
    this.#worker = startModuleWorker(new URL('./hash-worker.ts', import.meta.url), 'hash-worker.js', {
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 32 },
    });
    // Idle workers never keep the process alive.
    this.#worker.unref();
    this.#worker.on('message', (reply: HashReply) => {
      if (reply.op === 'hashed' && spare.length < SPARE_SLOTS_MAX) spare.push(reply.buffer);
      const listener = this.listeners.get(reply.job);
      if (listener === undefined) return;
      if (reply.op === 'hashed') listener.hashed(reply.bytes);
      else {
        this.listeners.delete(reply.job);
        listener.done({ md5: reply.md5, blocks: reply.blocks.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)) });
      }
    });
    const fail = (error: Error) => {
      onExit(this);
      for (const listener of this.listeners.values()) listener.failed(error);
      this.listeners.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`hash worker exited (${code})`)));
  }

  post(message: HashRequest, transfer?: ArrayBuffer[]): void {
    this.#worker.postMessage(message, transfer);
  }
}

const pool: PoolWorker[] = [];
/** One worker per core, at most 4: parts in flight beyond that share them. */
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism()));
let nextJob = 1;

/** The least busy worker (fewest streams), started on first use. */
function pickWorker(): PoolWorker {
  if (pool.length < POOL_SIZE) {
    const worker = new PoolWorker((gone) => {
      const at = pool.indexOf(gone);
      if (at >= 0) pool.splice(at, 1);
    });
    pool.push(worker);
    return worker;
  }
  return pool.reduce((a, b) => (b.listeners.size < a.listeners.size ? b : a));
}

/**
 * One stream's hashes on a worker thread: `update` each chunk in order (it answers a promise
 * when the stream should wait for the worker to catch up), then `digest` once. `abort` if the
 * stream ends otherwise.
 */
export class OffThreadHash {
  readonly #worker: PoolWorker;
  readonly #job = nextJob++;
  #inFlight = 0;
  #waiting: { resolve: () => void; reject: (error: Error) => void } | null = null;
  #result: Promise<WorkerDigests>;
  #error: Error | null = null;
  /** The buffer being filled, and how much of it is. */
  #slot: ArrayBuffer | null = null;
  #filled = 0;

  constructor(want: { md5: boolean; block: number }) {
    this.#worker = pickWorker();
    let resolve!: (digests: WorkerDigests) => void;
    let reject!: (error: Error) => void;
    this.#result = new Promise<WorkerDigests>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A result nobody asks for (an aborted stream) is not an unhandled rejection.
    this.#result.catch(() => undefined);
    this.#worker.listeners.set(this.#job, {
      hashed: (bytes) => {
        this.#inFlight -= bytes;
        if (this.#waiting !== null && this.#inFlight <= IN_FLIGHT_MAX / 2) {
          const { resolve: go } = this.#waiting;
          this.#waiting = null;
          go();
        }
      },
      done: resolve,
      failed: (error) => {
        this.#error = error;
        this.#waiting?.reject(error);
        this.#waiting = null;
        reject(error);
      },
    });
    this.#worker.post({ op: 'start', job: this.#job, md5: want.md5, block: want.block });
  }

  /**
   * Copies `chunk` into the current buffer, posting each buffer once full; a promise when the
   * worker is more than IN_FLIGHT_MAX behind.
   */
  update(chunk: Buffer): Promise<void> | undefined {
    if (this.#error !== null) return Promise.reject(this.#error);
    // Copies of these bytes, handed over (not cloned again): the chunk may be a view of a larger
    // buffer, and it goes on to the disk.
    for (let at = 0; at < chunk.length;) {
      this.#slot ??= spare.pop() ?? new ArrayBuffer(SLOT_BYTES);
      const length = Math.min(SLOT_BYTES - this.#filled, chunk.length - at);
      new Uint8Array(this.#slot, this.#filled, length).set(chunk.subarray(at, at + length));
      this.#filled += length;
      at += length;
      if (this.#filled === SLOT_BYTES) this.#post();
    }
    if (this.#inFlight <= IN_FLIGHT_MAX) return undefined;
    return new Promise<void>((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  /** Hands the current buffer (its filled part) to the worker. */
  #post(): void {
    const buffer = this.#slot;
    if (buffer === null || this.#filled === 0) return;
    this.#worker.post({ op: 'data', job: this.#job, buffer, length: this.#filled }, [buffer]);
    this.#inFlight += this.#filled;
    this.#slot = null;
    this.#filled = 0;
  }

  digest(): Promise<WorkerDigests> {
    if (this.#error === null) {
      this.#post();
      this.#worker.post({ op: 'end', job: this.#job });
    }
    return this.#result;
  }

  abort(): void {
    if (this.#slot !== null && spare.length < SPARE_SLOTS_MAX) spare.push(this.#slot);
    this.#slot = null;
    this.#filled = 0;
    if (!this.#worker.listeners.delete(this.#job)) return;
    this.#worker.post({ op: 'drop', job: this.#job });
  }
}
