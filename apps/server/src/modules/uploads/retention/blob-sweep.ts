/**
 * What the upload retention sweep (`unreferenced.ts`) needs of stored uploads: list the keys
 * with their age, delete one. Implemented here over the embedded upload host's folder
 * (`<uploadsDir>/files/<key>`); when uploads move behind a BlobStore, this is the one place to re-point.
 */
import { opendir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { nowMs } from '../../../lib/time.ts';
import { pathForKey } from '../keys.ts';

export interface StoredBlob {
  key: string;
  /** Milliseconds since the object was last written. */
  ageMs: number;
}

export interface BlobSweepStore {
  list(): AsyncIterable<StoredBlob>;
  /** Removes the object; one already gone is not an error. */
  delete(key: string): Promise<void>;
}

/** The embedded upload host's objects under `<uploadsDir>/files` (UPLOADS_DIR, by default `<dataDir>/uploads`). */
export function localBlobSweepStore(
  dataDir: string,
  uploadsDir: string = join(dataDir, 'uploads'),
  now: () => number = nowMs,
): BlobSweepStore {
  const root = join(uploadsDir, 'files');

  async function* walk(dir: string, prefix: string): AsyncGenerator<StoredBlob> {
    let handle;
    try {
      handle = await opendir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for await (const entry of handle) {
      const key = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        yield* walk(path, key);
      } else if (entry.isFile()) {
        const info = await stat(path).catch(() => null);
        if (info !== null) yield { key, ageMs: now() - info.mtimeMs };
      }
    }
  }

  return {
    list: () => walk(root, ''),
    async delete(key) {
      const path = pathForKey(root, key);
      if (path === null) throw new Error(`not a stored upload key: ${key}`);
      await unlink(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },
  };
}
