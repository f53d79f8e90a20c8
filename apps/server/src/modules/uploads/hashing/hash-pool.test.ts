import { createHash, randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DigestStream, PASS_ON_BYTES, QETAG_BLOCK, TooLargeError, qetagOf } from './digest-stream.ts';
import { IN_FLIGHT_MAX, OffThreadHash } from './hash-pool.ts';

const sha1 = (data: Buffer) => createHash('sha1').update(data).digest();
const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

/** `data` as a stream of chunks of uneven sizes (some cross a 4 MB block boundary). */
function chunked(data: Buffer): Readable {
  const sizes = [1, 65_536, 333_333, 4 * 1024 * 1024 - 7, 1_000_003];
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(data.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks);
}

const sink = () =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });

describe('hashing on a worker thread', () => {
  it('measures a stream as one thread would: size, MD5, SHA-1 per 4 MB block, qetag, CRC-32, head', async () => {
    const data = randomBytes(2 * QETAG_BLOCK + 12_345);
    const digest = new DigestStream(data.length, { md5: true, crc32: true });
    const through: Buffer[] = [];
    await pipeline(
      chunked(data),
      digest,
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          through.push(chunk);
          callback();
        },
      }),
    );
    const got = digest.digests();
    // The bytes pass unchanged, in order.
    expect(Buffer.concat(through).equals(data)).toBe(true);
    expect(got.size).toBe(data.length);
    expect(got.md5).toBe(md5(data));
    expect(got.blocks).toEqual([
      sha1(data.subarray(0, QETAG_BLOCK)),
      sha1(data.subarray(QETAG_BLOCK, 2 * QETAG_BLOCK)),
      sha1(data.subarray(2 * QETAG_BLOCK)),
    ]);
    expect(got.qetag).toBe(qetagOf(data));
    expect(got.crc32).toBe(crc32(data));
    expect(got.head.equals(data.subarray(0, got.head.length))).toBe(true);
  });

  it('hashes an empty stream as the provider does, and several streams at once each on its own', async () => {
    const empty = new DigestStream(10, { md5: true });
    await pipeline(Readable.from([]), empty, sink());
    expect(empty.digests().qetag).toBe('Fto5o-5ea0sNMlW_75VgGJCv2AcJ');
    expect(empty.digests().md5).toBe(md5(Buffer.alloc(0)));

    const files = Array.from({ length: 6 }, (_, i) => randomBytes(300_000 + i * 777_777));
    const digests = await Promise.all(
      files.map(async (file) => {
        const digest = new DigestStream(file.length, { md5: true });
        await pipeline(chunked(file), digest, sink());
        return digest.digests();
      }),
    );
    digests.forEach((got, i) => {
      expect(got.md5).toBe(md5(files[i]!));
      expect(got.qetag).toBe(qetagOf(files[i]!));
    });
  });

  it('passes socket-sized chunks on together, once they make PASS_ON_BYTES, and the rest at the end', async () => {
    const chunk = 64 * 1024;
    const data = randomBytes(2 * PASS_ON_BYTES + 3 * chunk);
    let read = 0;
    const source = new Readable({
      read() {
        if (read >= data.length) return void this.push(null);
        this.push(data.subarray(read, read + chunk));
        read += chunk;
      },
    });
    // How many bytes the source had given when each chunk reached the disk's side.
    const seenAt: number[] = [];
    const through: Buffer[] = [];
    const digest = new DigestStream(data.length, { md5: true });
    await pipeline(
      source,
      digest,
      new Writable({
        write(c: Buffer, _encoding, callback) {
          seenAt.push(read);
          through.push(c);
          callback();
        },
      }),
    );
    expect(Buffer.concat(through).equals(data)).toBe(true);
    expect(seenAt[0]).toBeGreaterThanOrEqual(PASS_ON_BYTES);
    expect(digest.digests().md5).toBe(md5(data));
  });

  it('holds a stream back once the worker is more than IN_FLIGHT_MAX behind, and lets it on as it catches up', async () => {
    const hash = new OffThreadHash({ md5: true, block: QETAG_BLOCK });
    const chunk = randomBytes(1024 * 1024);
    const posted: Buffer[] = [];
    let held: Promise<void> | undefined;
    while (held === undefined) {
      posted.push(chunk);
      held = hash.update(chunk);
      expect(posted.length * chunk.length).toBeLessThanOrEqual(IN_FLIGHT_MAX + chunk.length);
    }
    // Held exactly when more than the bound was outstanding; the worker then catches up.
    expect(posted.length * chunk.length).toBeGreaterThan(IN_FLIGHT_MAX);
    await held;
    const all = Buffer.concat(posted);
    expect((await hash.digest()).md5).toBe(md5(all));
  });

  it('fails a stream past its size limit, and an aborted stream leaves the workers serving others', async () => {
    const data = randomBytes(200_000);
    await expect(pipeline(chunked(data), new DigestStream(100_000, { md5: true }), sink())).rejects.toBeInstanceOf(TooLargeError);
    const after = new DigestStream(data.length, { md5: true });
    await pipeline(chunked(data), after, sink());
    expect(after.digests().md5).toBe(md5(data));
  });
});
