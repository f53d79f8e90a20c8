/**
 * The embedded host's unfinished chunked uploads (multipart v2), on disk under
 * `<dataDir>/uploads/multipart/<uploadId>/`: `upload.json` (bucket, key, expiry), the parts'
 * bytes, and for each part `<n>.json`, what was measured while it streamed in (size, MD5, the
 * SHA-1 of each 4 MB block, the first bytes) and where its bytes are.
 *
 * A part that announces its length L is written straight into `data-<L>` at offset
 * (n − 1) × L: the SDKs send every part but the last with the same length, so those parts land
 * where they belong in the finished object, and complete only appends the last part and gives
 * the file its key; the object's etag comes from the parts' block hashes when every part but
 * the last is whole 4 MB blocks. Any other layout (gaps, mixed lengths, a part sent without a
 * length) is joined by copying, once, and hashed again only when the blocks do not align.
 */
import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DigestStream, PASS_ON_BYTES, QETAG_BLOCK, QEtag, qetagOfBlocks, type Digests } from '../hashing/digest-stream.ts';

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
  /** Where its bytes are: a file of the upload's folder, from this offset. */
  file: string;
  offset: number;
}

const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** An upload folder without a readable record this old is a leftover (a new one gets its record at once). */
const STALE_MS = 3600_000;
/** Records remembered at most (past this the memory starts again empty). */
const REMEMBERED_MAX = 4096;

export class MultipartStaging {
  /** Parts being written in place by this process (a second request for one goes elsewhere). */
  private readonly writing = new Set<string>();
  /**
   * The small JSON files (`upload.json`, `<n>.json`) as last read, with the file's identity
   * then (decision 0077). Every part request reads the upload and every finished part's record;
   * a read is four calls to the file system (open, stat, read, close), each a hand-off to
   * libuv's thread pool, and a 50 MB upload made some 120 of them. A record is written once and
   * replaced only by renaming a new file over it, so the same inode, modification time and
   * size mean the same content: one stat decides, in this process or after another wrote.
   */
  private readonly remembered = new Map<string, { ino: bigint; mtimeNs: bigint; size: bigint; value: unknown }>();

  constructor(readonly dir: string) {}

  async prepare(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /**
   * At the start of the only process writing here (INSTANCES=single): the half-written record
   * files (`*.tmp`, renamed over a record once written) a crash left in the uploads' folders.
   * The parts' bytes stay: a part without its record is simply sent again, and the upload resumes.
   */
  async removeCrashLeftovers(): Promise<void> {
    for (const id of await readdir(this.dir)) {
      if (!UPLOAD_ID.test(id)) continue;
      const names = await readdir(this.folder(id)).catch(() => [] as string[]);
      for (const name of names) if (name.endsWith('.tmp')) await rm(join(this.folder(id), name), { force: true });
    }
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

  /** A JSON file of an upload's folder (null if missing or unreadable): read again only if it changed. */
  private async readJson<T>(path: string): Promise<T | null> {
    try {
      const now = await stat(path, { bigint: true });
      const known = this.remembered.get(path);
      if (known !== undefined && known.ino === now.ino && known.mtimeNs === now.mtimeNs && known.size === now.size) return known.value as T;
      const value = JSON.parse(await readFile(path, 'utf8')) as T;
      // Remembered with the identity seen before the read: if the file was replaced in between,
      // the next stat differs and it is read again.
      if (this.remembered.size >= REMEMBERED_MAX) this.remembered.clear();
      this.remembered.set(path, { ino: now.ino, mtimeNs: now.mtimeNs, size: now.size, value });
      return value;
    } catch {
      return null;
    }
  }

  /** Forgets what was read under `path` (a file, or a folder and everything in it). */
  private forget(path: string): void {
    this.remembered.delete(path);
    const folder = `${path}/`;
    for (const known of this.remembered.keys()) if (known.startsWith(folder)) this.remembered.delete(known);
  }

  async read(id: string): Promise<MultipartUpload | null> {
    if (!UPLOAD_ID.test(id)) return null;
    return this.readJson<MultipartUpload>(join(this.folder(id), 'upload.json'));
  }

  async remove(id: string): Promise<void> {
    if (!UPLOAD_ID.test(id)) return;
    await rm(this.folder(id), { recursive: true, force: true });
    this.forget(this.folder(id));
  }

  async removeExpired(nowSeconds: number): Promise<void> {
    for (const id of await readdir(this.dir)) {
      const upload = await this.read(id);
      // A folder without a readable record may be one another instance (same UPLOADS_DIR) is
      // creating this very moment: only an old one is a leftover.
      const leftover =
        upload === null &&
        (await stat(this.folder(id)).then(
          (info) => info.mtimeMs < nowSeconds * 1000 - STALE_MS,
          () => false,
        ));
      if (leftover || (upload !== null && upload.expireAt < nowSeconds)) {
        await rm(this.folder(id), { recursive: true, force: true });
        this.forget(this.folder(id));
      }
    }
  }

  /** The finished parts of an upload (a part still streaming in has no record yet). */
  async parts(id: string): Promise<Map<number, StoredPart>> {
    const parts = new Map<number, StoredPart>();
    for (const name of await readdir(this.folder(id))) {
      const match = /^(\d+)\.json$/.exec(name);
      if (!match) continue;
      // Null: being written right now.
      const part = await this.readJson<StoredPart>(join(this.folder(id), name));
      if (part !== null) parts.set(Number(match[1]), part);
    }
    return parts;
  }

  /**
   * Streams a part to disk while measuring it; `check` sees the measures before the part is
   * kept (and may throw to refuse it). A part sent again replaces the earlier one: its record
   * goes first, so a part cut off half-way is missing, never wrong.
   */
  async writePart(
    id: string,
    partNumber: number,
    body: Readable,
    limits: { maxBytes: number; length: number | undefined },
    check: (digests: Digests) => Promise<void>,
  ): Promise<StoredPart> {
    const folder = this.folder(id);
    const record = join(folder, `${partNumber}.json`);
    const slot = `${id}/${partNumber}`;
    await unlink(record).catch(() => undefined);
    this.forget(record);
    // In place when the length is announced and no other request is writing this part now.
    const inPlace = limits.length !== undefined && limits.length > 0 && !this.writing.has(slot);
    const file = inPlace ? `data-${limits.length}` : `${partNumber}.${randomBytes(6).toString('hex')}.part`;
    const offset = inPlace ? (partNumber - 1) * limits.length! : 0;
    if (inPlace) this.writing.add(slot);
    const digest = new DigestStream(limits.maxBytes, { md5: true });
    let kept = false;
    try {
      // In place: created if it is not there yet, never truncated, written at the part's offset.
      const handle = await open(join(folder, file), inPlace ? constants.O_WRONLY | constants.O_CREAT : 'wx');
      // The buffer takes what DigestStream passes on in one go (PASS_ON_BYTES).
      const to = handle.createWriteStream({ start: offset, highWaterMark: PASS_ON_BYTES });
      await pipeline(body, digest, to);
      const digests = digest.digests();
      if (limits.length !== undefined && digests.size !== limits.length) throw new PartLengthError();
      await check(digests);
      const part: StoredPart = {
        etag: digests.qetag,
        md5: digests.md5,
        size: digests.size,
        blocks: digests.blocks.map((b) => b.toString('base64')),
        head: digests.head.toString('base64'),
        file,
        offset,
      };
      const tmp = `${record}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, JSON.stringify(part));
      await rename(tmp, record);
      kept = true;
      return part;
    } finally {
      if (inPlace) this.writing.delete(slot);
      if (!inPlace && !kept) await unlink(join(folder, file)).catch(() => undefined);
    }
  }

  /**
   * Makes the chosen parts, in order, one file and returns its path (inside the upload's
   * folder, which goes once the file has its key), size and etag.
   */
  async join(
    id: string,
    chosen: readonly { partNumber: number; part: StoredPart }[],
  ): Promise<{ path: string; size: number; qetag: string }> {
    const folder = this.folder(id);
    const size = chosen.reduce((sum, c) => sum + c.part.size, 0);
    const aligned = chosen.every((c, i) => i === chosen.length - 1 || c.part.size % QETAG_BLOCK === 0);
    const hash = aligned ? null : new QEtag();
    const [first] = chosen;
    if (first === undefined) throw new Error('no parts to join');
    // A part still streaming into a data file would change the object after it got its key.
    if ([...this.writing].some((slot) => slot.startsWith(`${id}/`))) throw new Error('a part is still being written');

    // Parts 1..k−1 (or all k) in place, one after another, in one data file: keep that file.
    const inPlace = (c: { partNumber: number; part: StoredPart }, i: number) =>
      c.partNumber === i + 1 && c.part.file === first.part.file && c.part.offset === i * first.part.size && c.part.size === first.part.size;
    const placed = first.part.file.startsWith('data-') ? chosen.findIndex((c, i) => !inPlace(c, i)) : 0;
    const keep = placed === -1 ? chosen.length : placed;
    let path: string;
    const rest = chosen.slice(keep);
    if (keep > 0) {
      path = join(folder, first.part.file);
      const kept = chosen.slice(0, keep).reduce((sum, c) => sum + c.part.size, 0);
      // Parts of that file that are not kept lose their bytes: forget them.
      for (const [n, part] of await this.parts(id)) {
        if (part.file === first.part.file && n > keep) {
          await unlink(join(folder, `${n}.json`)).catch(() => undefined);
          this.forget(join(folder, `${n}.json`));
        }
      }
      await truncate(path, kept);
      if (hash !== null)
        await pipeline(createReadStream(path), async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source) hash.update(chunk);
        });
    } else {
      path = join(folder, `joined-${randomBytes(6).toString('hex')}`);
    }

    // The rest (usually just the last part) is copied on once.
    let copied = 0;
    const copies = async function* () {
      for (const { part } of rest) {
        const from = createReadStream(join(folder, part.file), {
          start: part.offset,
          end: part.offset + part.size - 1,
          highWaterMark: 1024 * 1024,
        });
        for await (const chunk of from as AsyncIterable<Buffer>) {
          copied += chunk.length;
          hash?.update(chunk);
          yield chunk;
        }
      }
    };
    if (rest.length > 0) await pipeline(copies, createWriteStream(path, { flags: keep > 0 ? 'a' : 'wx' }));
    const expected = rest.reduce((sum, c) => sum + c.part.size, 0);
    if (copied !== expected) throw new Error(`copied ${copied} bytes, expected ${expected}`);
    const qetag = hash !== null ? hash.digest() : qetagOfBlocks(chosen.flatMap((c) => c.part.blocks.map((b) => Buffer.from(b, 'base64'))));
    return { path, size, qetag };
  }
}

/** A part whose body is not as long as its Content-Length said. */
export class PartLengthError extends Error {
  constructor() {
    super('the part is not as long as its Content-Length');
    this.name = 'PartLengthError';
  }
}
