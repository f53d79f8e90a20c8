/**
 * The embedded upload host's storage: objects as files under `<uploadsDir>/files/<key>`
 * (UPLOADS_DIR, by default `<dataDir>/uploads`; a tree that mirrors the bucket), written through
 * `tmp/` and given their key with a hard link, which fails when the name exists: a key is never
 * overwritten, even by a race or by another instance sharing the folder.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, type Dirent } from 'node:fs';
import { link, mkdir, opendir, readdir, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { BlobExistsError, type BlobInfo, type BlobStore } from './blob-store.ts';
import { localFileKeyOf, pathForKey } from '../keys.ts';

/** A file in tmp/ unwritten this long is a crash's leftover (an upload in flight writes to it all the time). */
export const STALE_TMP_MS = 6 * 3600_000;

const missing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

export class LocalBlobStore implements BlobStore {
  readonly root: string;
  readonly filesDir: string;
  readonly tmpDir: string;

  constructor(dataDir: string, uploadsDir: string = join(dataDir, 'uploads')) {
    this.root = uploadsDir;
    this.filesDir = join(this.root, 'files');
    this.tmpDir = join(this.root, 'tmp');
  }

  /**
   * Creates the folders; `fresh` also clears tmp/ of leftovers of a crash, for the host at start:
   * files untouched for STALE_TMP_MS. A file still being written belongs to an upload in flight,
   * maybe on another instance that shares the folder (UPLOADS_DIR), and is left alone. `alone`:
   * this process is the only one writing here (INSTANCES=single), so nothing in tmp/ can be in
   * flight at its start: every file there is a crash's leftover (a kill -9 mid-upload) and goes.
   */
  async prepare(fresh = false, now: number = Date.now(), alone = false): Promise<void> {
    await mkdir(this.filesDir, { recursive: true });
    await mkdir(this.tmpDir, { recursive: true });
    if (!fresh) return;
    for (const name of await readdir(this.tmpDir)) {
      const path = join(this.tmpDir, name);
      const info = await stat(path).catch(() => null);
      if (info !== null && (alone || info.mtimeMs < now - STALE_TMP_MS)) await rm(path, { recursive: true, force: true });
    }
  }

  /** The file of a key, or null when the key is unsafe. */
  pathOf(key: string): string | null {
    return pathForKey(this.filesDir, key);
  }

  /** A fresh name in tmp/ (same file system as files/, so a link can move it). */
  tmpFile(): string {
    return join(this.tmpDir, randomBytes(12).toString('hex'));
  }

  /** Gives a finished file its key (BlobExistsError if taken); the file's old name goes. */
  async commit(file: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    if (target === null) throw new Error(`unsafe key ${JSON.stringify(key)}`);
    try {
      await mkdir(dirname(target), { recursive: true });
      await link(file, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // EEXIST: the key is taken; ENOTDIR/EEXIST on mkdir: a file stands where its folder would be.
      if (code === 'EEXIST' || code === 'ENOTDIR') throw new BlobExistsError(key);
      throw error;
    } finally {
      await unlink(file).catch(() => undefined);
    }
  }

  async put(key: string, body: Buffer): Promise<BlobInfo> {
    const tmp = this.tmpFile();
    await writeFile(tmp, body);
    await this.commit(tmp, key);
    return (await this.stat(key)) ?? { key, size: body.length, storedAt: new Date() };
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const path = this.pathOf(key);
    if (path === null) return null;
    try {
      const info = await stat(path);
      return info.isFile() ? { key, size: info.size, storedAt: info.mtime } : null;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async get(key: string): Promise<{ info: BlobInfo; stream: ReturnType<typeof createReadStream> } | null> {
    const info = await this.stat(key);
    const path = this.pathOf(key);
    if (info === null || path === null) return null;
    return { info, stream: createReadStream(path) };
  }

  async delete(key: string): Promise<boolean> {
    const path = this.pathOf(key);
    if (path === null) return false;
    try {
      await unlink(path);
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    // Walk only the folder the prefix names (e.g. "evidence/cert/" → files/evidence/cert).
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const start = folder === '' ? this.filesDir : pathForKey(this.filesDir, folder);
    if (start === null) return;
    const walk = async function* (this: LocalBlobStore, dir: string): AsyncGenerator<BlobInfo> {
      let entries: AsyncIterable<Dirent>;
      try {
        entries = await opendir(dir);
      } catch (error) {
        if (missing(error)) return;
        throw error;
      }
      for await (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          yield* walk.call(this, path);
        } else if (entry.isFile()) {
          const key = relative(this.filesDir, path).split(sep).join('/');
          if (!key.startsWith(prefix)) continue;
          const info = await this.stat(key);
          if (info !== null) yield info;
        }
      }
    };
    yield* walk.call(this, start);
  }

  /** `/upload/files/<key>`, or the same as an absolute URL on this server's own host; null for an unsafe key. */
  keyOfUrl(raw: string, ownHost: string | undefined): string | null {
    const found = localFileKeyOf(raw, ownHost);
    // A key that could leave the files folder is no key of ours.
    return found === null || this.pathOf(found.key) === null ? null : found.key;
  }
}
