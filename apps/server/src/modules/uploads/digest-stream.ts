import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';
import { IMAGE_SNIFF_BYTES } from './image-type.ts';
import { urlSafeBase64Encode } from './upload-token.ts';

const QETAG_BLOCK = 4 * 1024 * 1024;

/**
 * The provider's content hash ("qetag"): SHA-1 over 4 MB blocks. One block:
 * urlsafe_base64(0x16 + sha1(data)); more: urlsafe_base64(0x96 + sha1(sha1(block1) + ...)).
 * Fed incrementally, so a file is hashed while it streams to disk.
 */
export class QEtag {
  private readonly blockHashes: Buffer[] = [];
  private block: Hash = createHash('sha1');
  private inBlock = 0;

  update(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(QETAG_BLOCK - this.inBlock, chunk.length - offset);
      this.block.update(chunk.subarray(offset, offset + take));
      this.inBlock += take;
      offset += take;
      if (this.inBlock === QETAG_BLOCK) {
        this.blockHashes.push(this.block.digest());
        this.block = createHash('sha1');
        this.inBlock = 0;
      }
    }
  }

  digest(): string {
    if (this.inBlock > 0 || this.blockHashes.length === 0) this.blockHashes.push(this.block.digest());
    if (this.blockHashes.length === 1) return urlSafeBase64Encode(Buffer.concat([Buffer.from([0x16]), this.blockHashes[0]!]));
    const all = createHash('sha1').update(Buffer.concat(this.blockHashes)).digest();
    return urlSafeBase64Encode(Buffer.concat([Buffer.from([0x96]), all]));
  }
}

/** Thrown by DigestStream when more than `maxBytes` pass through it. */
export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.name = 'TooLargeError';
  }
}

export interface Digests {
  size: number;
  md5: string;
  qetag: string;
  crc32: number;
  /** The first bytes, enough to recognise the file type. */
  head: Buffer;
}

/**
 * A pass-through stream that measures what flows through it (size, MD5, qetag, CRC-32, the
 * first bytes) and fails with TooLargeError past `maxBytes`, so nothing is held in memory
 * but the current chunk.
 */
export class DigestStream extends Transform {
  private size = 0;
  private readonly md5 = createHash('md5');
  private readonly qetag = new QEtag();
  private crc = 0;
  private head: Buffer = Buffer.alloc(0);

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(new TooLargeError(this.maxBytes));
      return;
    }
    this.md5.update(chunk);
    this.qetag.update(chunk);
    this.crc = crc32(chunk, this.crc);
    if (this.head.length < IMAGE_SNIFF_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, IMAGE_SNIFF_BYTES - this.head.length)]);
    }
    callback(null, chunk);
  }

  /** Valid once the stream has finished. */
  digests(): Digests {
    return { size: this.size, md5: this.md5.digest('hex'), qetag: this.qetag.digest(), crc32: this.crc, head: this.head };
  }
}
