/**
 * The BlobStore contract, run against both stores: the local disk of the embedded host, and
 * the provider's bucket through the qiniu Node SDK. The SDK uploads to the embedded upload
 * host (pointed at it as at the cloud); its management calls (stat, delete, list) and the
 * downloads from the private bucket's domain go to a small HTTP server standing in for the
 * provider's hosts at the network edge, answering from the same disk the upload host wrote.
 * The edge serves a file only for a private download URL signed as the provider checks it
 * (`?e=<deadline>&token=<AK>:<HMAC-SHA1 of the URL>`, decision 0082).
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobExistsError, BlobReadError, type BlobStore } from './blob-store.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import { QiniuBlobStore } from './qiniu-blob-store.ts';
import { BUCKET, KEYS, MB, pngBytes, PREFIX, startHost, type TestHost } from '../host/test-support.ts';
import { urlSafeBase64Decode } from '../upload-token.ts';

/** The provider's management API (stat, delete, list) over the embedded host's disk. */
function providerEdge(disk: LocalBlobStore): Server {
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const entry = (encoded: string) => {
    const [bucket, ...key] = (urlSafeBase64Decode(encoded)?.toString('utf8') ?? '').split(':');
    return { bucket, key: key.join(':') };
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      // The private bucket's domain: the URL up to `&token=` signed with the secret key, not expired.
      const [unsigned, token] = url.href.split('&token=');
      const deadline = Number(url.searchParams.get('e'));
      const sign = createHmac('sha1', KEYS.secretKey).update(unsigned!).digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
      if (token !== `${KEYS.accessKey}:${sign}` || !(deadline * 1000 >= Date.now())) return json(res, 401, { error: 'bad token' });
      const got = await disk.get(decodeURIComponent(url.pathname.slice('/files/'.length)));
      if (got === null) return json(res, 404, { error: 'Document not found' });
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      got.stream.pipe(res);
      return;
    }
    if (!String(req.headers.authorization ?? '').startsWith(`Qiniu ${KEYS.accessKey}:`)) return json(res, 401, { error: 'bad token' });
    const [, op, encoded] = url.pathname.split('/');
    if ((op === 'stat' || op === 'delete') && encoded !== undefined) {
      const { bucket, key } = entry(encoded);
      if (bucket !== BUCKET) return json(res, 631, { error: 'no such bucket' });
      if (op === 'stat') {
        const info = await disk.stat(key);
        return info === null
          ? json(res, 612, { error: 'no such file or directory' })
          : json(res, 200, { fsize: info.size, putTime: info.storedAt.getTime() * 10_000, hash: '', mimeType: '', type: 0 });
      }
      return (await disk.delete(key)) ? json(res, 200, {}) : json(res, 612, { error: 'no such file or directory' });
    }
    if (op === 'list') {
      // Pages of two, whatever the limit asked: a client must follow the marker.
      const all = [];
      for await (const info of disk.list(url.searchParams.get('prefix') ?? '')) all.push(info);
      all.sort((a, b) => a.key.localeCompare(b.key));
      const from = Number(url.searchParams.get('marker') || 0);
      const page = all.slice(from, from + 2);
      const marker = from + 2 < all.length ? String(from + 2) : '';
      return json(res, 200, {
        items: page.map((i) => ({ key: i.key, fsize: i.size, putTime: i.storedAt.getTime() * 10_000, hash: '', mimeType: '', type: 0 })),
        marker,
      });
    }
    return json(res, 404, { error: 'no such route' });
  };
  return createServer((req, res) => void handle(req, res).catch((error: unknown) => json(res, 599, { error: String(error) })));
}

interface Subject {
  name: string;
  /** What get() gives for a key that is not stored. */
  missingIs: null | 404;
  setUp: () => Promise<{ store: BlobStore; url: (key: string) => string; tearDown: () => Promise<void> }>;
}

const subjects: Subject[] = [
  {
    name: 'LocalBlobStore (the embedded host’s disk)',
    missingIs: null,
    setUp: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'clearplay-blobs-'));
      const store = new LocalBlobStore(dir);
      await store.prepare();
      return { store, url: (key) => `${PREFIX}/files/${key}`, tearDown: () => rm(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'QiniuBlobStore (the qiniu SDK against the embedded host and the provider edge)',
    missingIs: 404,
    setUp: async () => {
      const host: TestHost = await startHost({ maxImageBytes: 20 * MB });
      const edge = providerEdge(new LocalBlobStore(host.dataDir));
      await new Promise<void>((resolve) => edge.listen(0, '127.0.0.1', resolve));
      const edgeHost = `127.0.0.1:${(edge.address() as { port: number }).port}`;
      const upHost = `${new URL(host.base).host}${PREFIX}`;
      const publicBaseUrl = `http://${edgeHost}/files`;
      const store = await QiniuBlobStore.create({
        ...KEYS,
        bucket: BUCKET,
        publicBaseUrl,
        zone: new qiniu.conf.Zone([upHost], [upHost], edgeHost, edgeHost, edgeHost, edgeHost),
        useHttps: false,
      });
      return {
        store,
        url: (key) => `${publicBaseUrl}/${key}`,
        tearDown: async () => {
          await new Promise((resolve) => edge.close(resolve));
          await host.close();
        },
      };
    },
  },
];

describe.each(subjects)('$name', ({ setUp, missingIs }) => {
  let store: BlobStore;
  let url: (key: string) => string;
  let tearDown: () => Promise<void>;
  beforeAll(async () => {
    ({ store, url, tearDown } = await setUp());
  });
  afterAll(async () => {
    await tearDown();
  });

  it('puts, stats, reads back, and refuses to overwrite', async () => {
    const key = 'evidence/cert/202601/aaaa0001';
    const bytes = pngBytes(200_000, 3);
    const before = Date.now();
    expect(await store.stat(key)).toBeNull();
    expect(await store.put(key, bytes)).toMatchObject({ key, size: bytes.length });
    const info = await store.stat(key);
    expect(info).toMatchObject({ key, size: bytes.length });
    expect(info!.storedAt.getTime()).toBeGreaterThanOrEqual(before - 2000);
    expect(info!.storedAt.getTime()).toBeLessThanOrEqual(Date.now() + 2000);

    const got = await store.get(key);
    expect(got).not.toBeNull();
    const chunks: Buffer[] = [];
    for await (const chunk of got!.stream as AsyncIterable<Buffer>) chunks.push(chunk);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);

    await expect(store.put(key, pngBytes(1000, 4))).rejects.toBeInstanceOf(BlobExistsError);
  });

  it('puts a file larger than one form upload (chunked for the provider)', async () => {
    const key = 'evidence/proof/202601/bbbb0001';
    const bytes = pngBytes(9 * MB + 5, 5);
    await store.put(key, bytes);
    expect(await store.stat(key)).toMatchObject({ key, size: bytes.length });
  });

  it('lists by prefix with sizes and ages, across pages, and deletes', async () => {
    for (const n of [1, 2, 3]) await store.put(`evidence/env/202602/cccc000${n}`, pngBytes(1000 * n, n));
    await store.put('evidence/env/202603/dddd0001', pngBytes(500));
    const listed = [];
    for await (const info of store.list('evidence/env/202602/')) listed.push(info);
    expect(listed.map((i) => [i.key, i.size]).sort()).toEqual([
      ['evidence/env/202602/cccc0001', 1000],
      ['evidence/env/202602/cccc0002', 2000],
      ['evidence/env/202602/cccc0003', 3000],
    ]);
    expect(listed.every((i) => Date.now() - i.storedAt.getTime() < 60_000)).toBe(true);

    expect(await store.delete('evidence/env/202602/cccc0002')).toBe(true);
    expect(await store.delete('evidence/env/202602/cccc0002')).toBe(false);
    expect(await store.stat('evidence/env/202602/cccc0002')).toBeNull();
    const after = [];
    for await (const info of store.list('evidence/env/')) after.push(info.key);
    expect(after.sort()).toEqual(['evidence/env/202602/cccc0001', 'evidence/env/202602/cccc0003', 'evidence/env/202603/dddd0001']);
  });

  it('knows its own image URLs and no others', () => {
    expect(store.keyOfUrl(url('evidence/cert/202601/aaaa0001'), undefined)).toBe('evidence/cert/202601/aaaa0001');
    expect(store.keyOfUrl('https://elsewhere.example/evidence/cert/202601/aaaa0001', undefined)).toBeNull();
    expect(store.keyOfUrl('file:///etc/passwd', undefined)).toBeNull();
  });

  it('answers a missing object as the store knows it: null from the disk, HTTP 404 from the public domain', async () => {
    const missing = await store.get('evidence/cert/202601/none').catch((error: unknown) => error);
    if (missingIs === null) expect(missing).toBeNull();
    else expect(missing).toEqual(new BlobReadError('http', 404));
  });
});
