/**
 * The embedded host's unfinished chunked uploads (multipart v2), on disk under
 * `<dataDir>/uploads/multipart/<uploadId>/`: `upload.json` (bucket, key, expiry), each part's
 * bytes `<n>` and what was measured while they streamed in `<n>.json` (size, MD5, the SHA-1
 * of each 4 MB block, the first bytes). Complete joins the chosen parts in one pass: the etag
 * of the object comes from the parts' block hashes when every part but the last is a whole
 * number of 4 MB blocks (qiniu-js and the Node SDK send 4 MB parts), so no byte is hashed
 * twice; other part sizes are hashed once more as they are joined.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DigestStream, QETAG_BLOCK, QEtag, qetagOfBlocks, type Digests } from './digest-stream.ts';

export interface MultipartUpload {
  bucket: string;
  key: string;
  createdAt: number;
  /** Unix seconds. */
  expireAt: number;
}

export interface StoredPart {
  etag: string;
  md5: string;
  size: number;
  /** SHA-1 of each 4 MB block of the part, base64. */
  blocks: string[];
  /** The part's first bytes, base64. */
  head: string;
}

const UPLOAD_ID = /^[0-9a-f]{32}$/;

export class MultipartStaging {
  constructor(readonly dir: string) {}

  async prepare(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  private folder(id: string): string {
    return join(this.dir, id);
  }

  async create(upload: MultipartUpload): Promise<string> {
    const id = randomBytes(16).toString('hex');
    await mkdir(this.folder(id));
    await writeFile(join(this.folder(id), 'upload.json'), JSON.stringify(upload));
    return id;
  }

  async read(id: string): Promise<MultipartUpload | null> {
    if (!UPLOAD_ID.test(id)) return null;
    try {
      return JSON.parse(await readFile(join(this.folder(id), 'upload.json'), 'utf8')) as MultipartUpload;
    } catch {
      return null;
    }
  }

  async remove(id: string): Promise<void> {
    if (UPLOAD_ID.test(id)) await rm(this.folder(id), { recursive: true, force: true });
  }

  async removeExpired(nowSeconds: number): Promise<void> {
    for (const id of await readdir(this.dir)) {
      const upload = await this.read(id);
      if (upload === null || upload.expireAt < nowSeconds) await rm(this.folder(id), { recursive: true, force: true });
    }
  }

  /** The finished parts of an upload (a part still streaming in has no record yet). */
  async parts(id: string): Promise<Map<number, StoredPart>> {
    const parts = new Map<number, StoredPart>();
    for (const name of await readdir(this.folder(id))) {
      const match = /^(\d+)\.json$/.exec(name);
      if (!match) continue;
      try {
        parts.set(Number(match[1]), JSON.parse(await readFile(join(this.folder(id), name), 'utf8')) as StoredPart);
      } catch {
        // Being written right now.
      }
    }
    return parts;
  }

  /**
   * Streams a part to disk while measuring it; `check` sees the measures before the part is
   * kept (and may throw to refuse it). A part sent again replaces the earlier one.
   */
  async writePart(id: string, partNumber: number, body: Readable, maxBytes: number, check: (digests: Digests) => Promise<void>): Promise<StoredPart> {
    const folder = this.folder(id);
    const tmp = join(folder, `${partNumber}.${randomBytes(6).toString('hex')}.tmp`);
    const digest = new DigestStream(maxBytes, { md5: true });
    try {
      await pipeline(body, digest, createWriteStream(tmp));
      const digests = digest.digests();
      await check(digests);
      await rename(tmp, join(folder, String(partNumber)));
      const part: StoredPart = {
        etag: digests.qetag,
        md5: digests.md5,
        size: digests.size,
        blocks: digests.blocks.map((b) => b.toString('base64')),
        head: digests.head.toString('base64'),
      };
      await writeFile(join(folder, `${partNumber}.json`), JSON.stringify(part));
      return part;
    } finally {
      await unlink(tmp).catch(() => undefined);
    }
  }

  /**
   * Joins the chosen parts, in order, into `target` (a new file) and returns the object's
   * size and etag. Parts that start on 4 MB boundaries are copied, not hashed again.
   */
  async join(id: string, chosen: readonly { partNumber: number; part: StoredPart }[], target: string): Promise<{ size: number; qetag: string }> {
    const folder = this.folder(id);
    const expected = chosen.reduce((sum, c) => sum + c.part.size, 0);
    const aligned = chosen.every((c, i) => i === chosen.length - 1 || c.part.size % QETAG_BLOCK === 0);
    const [first, ...rest] = chosen;
    if (first === undefined) throw new Error('no parts to join');

    let written = 0;
    const counted = async function* (sources: Iterable<string>, hash: QEtag | null) {
      for (const file of sources) {
        for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
          written += chunk.length;
          hash?.update(chunk);
          yield chunk;
        }
      }
    };
    let qetag: string;
    if (aligned) {
      // The first part by the kernel's copy; the rest streamed on once, unhashed.
      await copyFile(join(folder, String(first.partNumber)), target);
      written = first.part.size;
      await pipeline(counted(rest.map((c) => join(folder, String(c.partNumber))), null), createWriteStream(target, { flags: 'a' }));
      qetag = qetagOfBlocks(chosen.flatMap((c) => c.part.blocks.map((b) => Buffer.from(b, 'base64'))));
    } else {
      const hash = new QEtag();
      await pipeline(counted(chosen.map((c) => join(folder, String(c.partNumber))), hash), createWriteStream(target));
      qetag = hash.digest();
    }
    if (written !== expected) throw new Error(`joined ${written} bytes, expected ${expected}`);
    return { size: written, qetag };
  }
}
