/**
 * MultipartStaging remembers the small JSON files it read (decision 0077) and reads one again
 * only when it changed on disk: a record replaced by another process (here another instance on
 * the same folder), a part removed, an upload removed, are all seen at once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MultipartStaging } from './host-storage.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clearplay-staging-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const write = (staging: MultipartStaging, id: string, n: number, bytes: Buffer) =>
  staging.writePart(id, n, Readable.from([bytes]), { maxBytes: bytes.length, length: bytes.length }, async () => undefined);

describe('the records of unfinished uploads, remembered', () => {
  it('sees a part replaced by another process, a part removed and an upload removed', async () => {
    const one = new MultipartStaging(join(dir, 'multipart'));
    const other = new MultipartStaging(join(dir, 'multipart'));
    await one.prepare();
    const id = await one.create({ bucket: 'b', key: 'k', createdAt: 1, expireAt: 2 });
    expect(await other.read(id)).toEqual({ bucket: 'b', key: 'k', createdAt: 1, expireAt: 2 });

    const first = await write(one, id, 1, randomBytes(1000));
    expect((await one.parts(id)).get(1)?.etag).toBe(first.etag);
    expect((await other.parts(id)).get(1)?.etag).toBe(first.etag);
    // Read again without a change: the same record.
    expect((await other.parts(id)).get(1)?.etag).toBe(first.etag);

    // The same part sent again, of the same length, through the other instance, then read by the first.
    const again = await write(other, id, 1, randomBytes(1000));
    expect(again.etag).not.toBe(first.etag);
    expect((await one.parts(id)).get(1)?.etag).toBe(again.etag);
    expect((await other.parts(id)).get(1)?.etag).toBe(again.etag);

    await other.remove(id);
    expect(await one.read(id)).toBeNull();
    expect((await one.parts(id).catch(() => new Map())).size).toBe(0);
  });
});
