import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';
import { IMAGE_SNIFF_BYTES } from '../image-type.ts';
import { OffThreadHash, type WorkerDigests } from './hash-pool.ts';
import { urlSafeBase64Encode } from '../upload-token.ts';

/** The provider's etag works on blocks of 4 MB. */
export const QETAG_BLOCK = 4 * 1024 * 1024;

/**
 * The provider's content hash ("qetag"): SHA-1 over 4 MB blocks. One block:
 * urlsafe_base64(0x16 + sha1(data)); more: urlsafe_base64(0x96 + sha1(sha1(block1) + ...)).
 * Fed incrementally, so a file is hashed while it streams to disk. The block hashes are kept:
 * parts that start on a block boundary give the whole object's etag without a second read.
 */
export class QEtag {
  private readonly blockHashes: Buffer[] = [];
  private block: Hash = createHash('sha1');
  private inBlock = 0;

  update(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(QETAG_BLOCK - this.inBlock, chunk.length - offset);
      this.block.update(offset === 0 && take === chunk.length ? chunk : chunk.subarray(offset, offset + take));
      this.inBlock += take;
      offset += take;
      if (this.inBlock === QETAG_BLOCK) {
        this.blockHashes.push(this.block.digest());
        this.block = createHash('sha1');
        this.inBlock = 0;
      }
    }
  }

  /** The SHA-1 of each 4 MB block (the last one may be shorter); call once, at the end. */
  blocks(): Buffer[] {
    if (this.inBlock > 0 || this.blockHashes.length === 0) {
      this.blockHashes.push(this.block.digest());
      this.inBlock = 0;
    }
    return this.blockHashes;
  }

  digest(): string {
    return qetagOfBlocks(this.blocks());
  }
}

/** The etag of an object from the SHA-1 of its 4 MB blocks, in order. */
export function qetagOfBlocks(blocks: readonly Buffer[]): string {
  if (blocks.length === 1) return urlSafeBase64Encode(Buffer.concat([Buffer.from([0x16]), blocks[0]!]));
  const all = createHash('sha1').update(Buffer.concat(blocks)).digest();
  return urlSafeBase64Encode(Buffer.concat([Buffer.from([0x96]), all]));
}

/** For tests and the benchmark: the qetag of a buffer. */
export function qetagOf(data: Buffer): string {
  const hash = new QEtag();
  hash.update(data);
  return hash.digest();
}

/**
 * DigestStream holds the chunks that pass through it until they make this many bytes, then
 * passes them on in one go (decision 0077). A request body arrives in socket reads of up to
 * 64 KB; passed on one by one, each became its own write, each a hand-off to libuv's thread
 * pool, which on these virtual machines costs more CPU than the write itself. Passed on
 * together, the file stream writes the first and gathers the rest into one `writev`.
 */
export const PASS_ON_BYTES = 1024 * 1024;

/** Thrown by DigestStream when more than `maxBytes` pass through it. */
export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.name = 'TooLargeError';
  }
}

export interface Digests {
  size: number;
  qetag: string;
  /** SHA-1 of each 4 MB block, as the qetag used them. */
  blocks: Buffer[];
  /** Hex; empty unless asked for. */
  md5: string;
  /** Zero unless asked for. */
  crc32: number;
  /** The first bytes, enough to recognise the file type. */
  head: Buffer;
}

/**
 * A pass-through stream that measures what flows through it (size, qetag with its block
 * hashes, the first bytes, and MD5 or CRC-32 when asked) and fails with TooLargeError past
 * `maxBytes`, so nothing is held in memory but the current chunk and what its hash worker has
 * not yet taken. MD5 and SHA-1 run on a worker thread (hash-pool.ts, decision 0072), fed each
 * chunk as it passes; the stream finishes once they are done. CRC-32 and the head stay here.
 */
export class DigestStream extends Transform {
  private size = 0;
  private readonly hash: OffThreadHash;
  private crc: number | null;
  private head: Buffer = Buffer.alloc(0);
  private hashed: WorkerDigests | null = null;
  /** Chunks passed on together once they make PASS_ON_BYTES (see there). */
  private held: Buffer[] = [];
  private heldBytes = 0;

  constructor(
    private readonly maxBytes: number,
    want: { md5?: boolean; crc32?: boolean } = {},
  ) {
    super();
    this.hash = new OffThreadHash({ md5: want.md5 === true, block: QETAG_BLOCK });
    this.crc = want.crc32 === true ? 0 : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(new TooLargeError(this.maxBytes));
      return;
    }
    const behind = this.hash.update(chunk);
    if (this.crc !== null) this.crc = crc32(chunk, this.crc);
    if (this.head.length < IMAGE_SNIFF_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, IMAGE_SNIFF_BYTES - this.head.length)]);
    }
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.heldBytes >= PASS_ON_BYTES) this.passOn();
    // The next chunk is taken when the worker is not too far behind.
    if (behind === undefined) callback();
    else behind.then(() => callback(), callback);
  }

  /** Passes the held chunks on, together: the file stream writes them in one or two calls. */
  private passOn(): void {
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const chunk of held) this.push(chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.passOn();
    this.hash.digest().then((digests) => {
      this.hashed = digests;
      callback();
    }, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.hashed === null) this.hash.abort();
    callback(error);
  }

  /** Valid once the stream has finished; call once. */
  digests(): Digests {
    if (this.hashed === null) throw new Error('DigestStream: digests() before the stream finished');
    const { blocks, md5 } = this.hashed;
    return {
      size: this.size,
      qetag: qetagOfBlocks(blocks),
      blocks,
      md5,
      crc32: this.crc ?? 0,
      head: this.head,
    };
  }
}
