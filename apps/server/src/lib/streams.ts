import type { Writable } from 'node:stream';

/** Resolves when a stream written by hand has room again (or is gone): back-pressure for page-by-page writers. */
export function room(out: Writable): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}
