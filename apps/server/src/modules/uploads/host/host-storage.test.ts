/**
 * How the embedded host lays chunked uploads out on disk, seen through the protocol: parts of
 * one length go in place into one data file, and every other layout (mixed lengths, a part sent
 * again with another length, a part sent without a length, parts left out) still gives the
 * exact bytes and the provider's etag.
 */
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complete, initUpload, MB, objectUrl, pngBytes, putPart, startHost, token, type TestHost } from './test-support.ts';

let host: TestHost;
beforeAll(async () => {
  host = await startHost({ maxImageBytes: 20 * MB });
});
afterAll(async () => {
  await host.close();
});

let counter = 0;
const freshKey = () => `evidence/proof/202604/layout${++counter}`;

/** The provider's etag from its published definition (SHA-1 per 4 MB block). */
function expectedEtag(data: Buffer): string {
  const sha1 = (b: Buffer) => createHash('sha1').update(b).digest();
  const blocks: Buffer[] = [];
  for (let i = 0; i < Math.max(1, Math.ceil(data.length / (4 * MB))); i++) blocks.push(sha1(data.subarray(i * 4 * MB, (i + 1) * 4 * MB)));
  const body =
    blocks.length === 1
      ? Buffer.concat([Buffer.from([0x16]), blocks[0]!])
      : Buffer.concat([Buffer.from([0x96]), sha1(Buffer.concat(blocks))]);
  return body.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

async function put(key: string, t: string, id: string, n: number, bytes: Buffer): Promise<{ etag: string; partNumber: number }> {
  const res = await putPart(host.base, key, t, id, n, bytes);
  expect(res.status, await res.clone().text()).toBe(200);
  return { etag: ((await res.json()) as { etag: string }).etag, partNumber: n };
}

/** A part sent with `transfer-encoding: chunked`, so without a length. */
function putUnannounced(key: string, t: string, id: string, n: number, bytes: Buffer): Promise<{ etag: string; partNumber: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${objectUrl(host.base, key)}/${id}/${n}`, { method: 'PUT', headers: { authorization: `UpToken ${t}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${res.statusCode} ${Buffer.concat(chunks).toString()}`));
        else resolve({ etag: (JSON.parse(Buffer.concat(chunks).toString()) as { etag: string }).etag, partNumber: n });
      });
    });
    req.on('error', reject);
    req.write(bytes.subarray(0, 1000));
    req.end(bytes.subarray(1000));
  });
}

async function completeAndCheck(
  key: string,
  t: string,
  id: string,
  parts: { etag: string; partNumber: number }[],
  file: Buffer,
): Promise<void> {
  const res = await complete(host.base, key, t, id, { parts });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(await res.json()).toEqual({ hash: expectedEtag(file), key });
  expect((await readFile(join(host.dataDir, 'uploads', 'files', key))).equals(file)).toBe(true);
  expect(await readdir(join(host.dataDir, 'uploads', 'multipart'))).not.toContain(id);
}

describe('chunked upload layouts', () => {
  it('4 MB parts (as the SDKs send them) and a short last part', async () => {
    const key = freshKey();
    const t = token({ key });
    const file = pngBytes(4 * MB * 2 + 123_456, 11);
    const id = await initUpload(host.base, key, t);
    const parts = await Promise.all([0, 1, 2].map((i) => put(key, t, id, i + 1, file.subarray(i * 4 * MB, (i + 1) * 4 * MB))));
    // Parts 1 and 2 went in place into one data file.
    const names = await readdir(join(host.dataDir, 'uploads', 'multipart', id));
    expect(names.filter((n) => n.startsWith('data-')).sort()).toEqual([`data-123456`, `data-${4 * MB}`]);
    await completeAndCheck(key, t, id, parts, file);
  });

  it('parts of mixed lengths, not aligned with the 4 MB blocks', async () => {
    const key = freshKey();
    const t = token({ key });
    const sizes = [2 * MB, MB, 3 * MB + 7, 5000];
    const file = pngBytes(
      sizes.reduce((a, b) => a + b, 0),
      12,
    );
    const id = await initUpload(host.base, key, t);
    let offset = 0;
    const parts = [];
    for (const [i, size] of sizes.entries()) {
      parts.push(await put(key, t, id, i + 1, file.subarray(offset, offset + size)));
      offset += size;
    }
    await completeAndCheck(key, t, id, parts, file);
  });

  it('a part sent again with another length, and a part sent without a length', async () => {
    const key = freshKey();
    const t = token({ key });
    const file = pngBytes(4 * MB + 2 * MB + 999, 13);
    const id = await initUpload(host.base, key, t);
    const one = await put(key, t, id, 1, file.subarray(0, 4 * MB));
    // Part 2 first with the wrong bytes and length, then again, right, without a length.
    await put(key, t, id, 2, pngBytes(3 * MB, 99));
    const two = await putUnannounced(key, t, id, 2, file.subarray(4 * MB, 6 * MB));
    const three = await put(key, t, id, 3, file.subarray(6 * MB));
    await completeAndCheck(key, t, id, [one, two, three], file);
  });

  it('parts left out of complete are not in the object', async () => {
    const key = freshKey();
    const t = token({ key });
    const file = pngBytes(2 * MB + 10, 14);
    const id = await initUpload(host.base, key, t);
    const one = await put(key, t, id, 1, file.subarray(0, MB));
    const two = await put(key, t, id, 2, file.subarray(MB, 2 * MB + 10));
    await put(key, t, id, 3, pngBytes(MB, 15)); // sent, never chosen
    await put(key, t, id, 5, pngBytes(MB, 16)); // sent, never chosen
    await completeAndCheck(key, t, id, [one, two], file);
  });
});
