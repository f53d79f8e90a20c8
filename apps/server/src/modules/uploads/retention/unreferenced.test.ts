import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../lib/time.ts';
import { localBlobSweepStore } from './blob-sweep.ts';
import { removeUnreferencedUploads } from './unreferenced.ts';

/**
 * The upload retention sweep on a real upload folder (decisions 0062, 0110): which old uploads no
 * reference names, how the references are read (lazily, in order, page by page), the per-run bound
 * and a stopped run. The job's whole run against the orders and users is modules/jobs/retention.test.ts.
 */

let folder: string;
const now = Date.now();
const pathOf = (key: string) => join(folder, 'uploads', 'files', key);
const exists = (key: string) =>
  stat(pathOf(key)).then(
    () => true,
    () => false,
  );
async function store(key: string, ageMs: number): Promise<void> {
  await mkdir(dirname(pathOf(key)), { recursive: true });
  await writeFile(pathOf(key), 'x');
  await utimes(pathOf(key), new Date(now - ageMs), new Date(now - ageMs));
}
const blobs = () => localBlobSweepStore(folder, undefined, () => now);
const cert = (n: number) => `evidence/cert/202601/${n.toString(16).padStart(32, '0')}`;
const avatar = (n: number) => `avatar/7/${n.toString(16).padStart(32, '0')}`;

/** A reference source that counts the pages read from it. */
function source(pages: string[][]): AsyncIterable<string[]> & { read: number } {
  const counted = {
    read: 0,
    async *[Symbol.asyncIterator]() {
      for (const page of pages) {
        counted.read += 1;
        yield page;
      }
    },
  };
  return counted;
}

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'clearplay-unreferenced-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

describe('removeUnreferencedUploads', () => {
  it('removes the old evidence images and avatars nothing names, and keeps the named, the young and other folders', async () => {
    for (const n of [1, 2, 3, 4, 5, 6]) await store(cert(n), 30 * DAY_MS);
    await store(cert(7), 23 * HOUR_MS);
    for (const n of [1, 2]) await store(avatar(n), 30 * DAY_MS);
    await store('announcements/old.png', 30 * DAY_MS);
    const orders = source([
      [`/upload/files/${cert(1)}`, `http://shop.example:3000/upload/files/${cert(2)}`],
      [`https://elsewhere.example/a.png`, `/upload/files/${cert(3)}?v=2#x`],
      [`/upload/files/${cert(4).replace('cert', '%63ert')}`],
    ]);
    const users = source([[`/upload/files/${avatar(1)}`]]);

    const removed = await removeUnreferencedUploads(blobs(), { graceMs: 24 * HOUR_MS, maxCandidates: 100, references: [orders, users] });

    expect(removed.sort()).toEqual([cert(5), cert(6), avatar(2)].sort());
    for (const key of [cert(5), cert(6), avatar(2)]) expect(await exists(key), key).toBe(false);
    for (const key of [cert(1), cert(2), cert(3), cert(4), cert(7), avatar(1), 'announcements/old.png'])
      expect(await exists(key), key).toBe(true);
    expect([orders.read, users.read]).toEqual([3, 1]);
  });

  it('reads the references only while a candidate is still unnamed', async () => {
    await store(cert(1), 30 * DAY_MS);
    const orders = source([[`/upload/files/${cert(1)}`], ['/upload/files/never-read'], ['/upload/files/never-read']]);
    const users = source([['/upload/files/never-read']]);
    expect(await removeUnreferencedUploads(blobs(), { graceMs: HOUR_MS, maxCandidates: 100, references: [orders, users] })).toEqual([]);
    expect([orders.read, users.read]).toEqual([1, 0]);
    expect(await exists(cert(1))).toBe(true);

    // No old upload at all: no reference is read.
    const none = source([['x']]);
    expect(await removeUnreferencedUploads(blobs(), { graceMs: 60 * DAY_MS, maxCandidates: 100, references: [none] })).toEqual([]);
    expect(none.read).toBe(0);
  });

  it('checks at most maxCandidates old uploads a run, and every one of them over the runs', async () => {
    const keys = [1, 2, 3, 4, 5].map(cert);
    for (const key of keys) await store(key, 3 * DAY_MS);
    const perRun: number[] = [];
    for (let run = 0; run < 4; run++) {
      perRun.push((await removeUnreferencedUploads(blobs(), { graceMs: DAY_MS, maxCandidates: 2, references: [] })).length);
    }
    expect(perRun).toEqual([2, 2, 1, 0]);
    for (const key of keys) expect(await exists(key), key).toBe(false);
  });

  it('deletes nothing when the run is stopped', async () => {
    await store(cert(1), 30 * DAY_MS);
    const stop = new AbortController();
    stop.abort();
    const orders = source([[]]);
    const removed = await removeUnreferencedUploads(blobs(), {
      graceMs: HOUR_MS,
      maxCandidates: 100,
      references: [orders],
      signal: stop.signal,
    });
    expect(removed).toEqual([]);
    expect(await exists(cert(1))).toBe(true);
    expect(orders.read).toBe(0);
  });
});
