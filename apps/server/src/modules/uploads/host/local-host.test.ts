import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qetagOf } from '../hashing/digest-stream.ts';
import { localEvidenceUrls } from '../evidence/evidence-urls.ts';
import {
  BUCKET,
  complete,
  encodeKey,
  EVIDENCE_SECRET,
  formUpload,
  initUpload,
  KEYS,
  MB,
  nowSeconds,
  objectUrl,
  pngBytes,
  PREFIX,
  putPart,
  rawGet,
  signedPath,
  startHost,
  token,
  upTokenHeader,
  type TestHost,
} from './test-support.ts';

const RETURN_BODY =
  '{"url":"/upload/files/$(key)","key":"$(key)","hash":"$(etag)","fsize":$(fsize),"mimeType":"$(mimeType)","name":"$(fname)","note":"$(x:note)"}';
let counter = 0;
const freshKey = () => `evidence/proof/202603/test${++counter}`;

let host: TestHost;
beforeAll(async () => {
  host = await startHost({ maxImageBytes: 3 * MB });
});
afterAll(async () => {
  await host.close();
});

const stored = (key: string) => join(host.dataDir, 'uploads', 'files', key);

async function errorOf(res: Response): Promise<string> {
  return `${res.status} ${((await res.json()) as { error: string }).error}`;
}

describe('form upload (files up to 4 MB)', () => {
  it('refuses a truncated form or one without its boundary with 400, not the 599 "internal error"', async () => {
    const key = freshKey();
    const boundary = '----cut';
    const form = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token({ key })}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n`),
      pngBytes(3000),
    ]);
    for (const type of [`multipart/form-data; boundary=${boundary}`, 'multipart/form-data']) {
      const res = await fetch(`${host.base}${PREFIX}`, { method: 'POST', headers: { 'content-type': type }, body: form });
      expect(await errorOf(res)).toBe('400 invalid multipart form');
    }
    expect(existsSync(stored(key))).toBe(false);
    expect((await readdir(join(host.dataDir, 'uploads', 'tmp')).catch(() => [])).length).toBe(0);
  });

  it('stores the image, answers the returnBody and serves the file back', async () => {
    const key = freshKey();
    const file = pngBytes(200_000);
    const res = await formUpload(host.base, {
      file,
      token: token({ key, returnBody: RETURN_BODY }),
      key,
      filename: 'proof "1".png',
      extra: { 'x:note': 'a "quoted" note', 'x-qn-meta-origin': 'test' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-reqid')).toBeTruthy();
    expect(await res.json()).toEqual({
      url: `/upload/files/${key}`,
      key,
      hash: qetagOf(file),
      fsize: file.length,
      mimeType: 'image/png',
      name: 'proof "1".png',
      note: 'a "quoted" note',
    });
    expect((await readFile(stored(key))).equals(file)).toBe(true);

    const served = await fetch(`${host.base}${signedPath(key)}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);

    const again = await rawGet(host.base, signedPath(key), { 'if-none-match': served.headers.get('etag')! });
    expect(again.status).toBe(304);
    const head = await fetch(`${host.base}${signedPath(key)}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(file.length));
  });

  it('answers {hash, key} without a returnBody, and takes the key from the scope when the form has none', async () => {
    const key = freshKey();
    const file = pngBytes(1000, 2);
    const res = await formUpload(host.base, { file, token: token({ key }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hash: qetagOf(file), key });
  });

  it('checks the optional crc32 field', async () => {
    const { crc32 } = await import('node:zlib');
    const file = pngBytes(5000, 3);
    const key = freshKey();
    const bad = await formUpload(host.base, { file, token: token({ key }), key, extra: { crc32: String((crc32(file) + 1) >>> 0) } });
    expect(await errorOf(bad)).toBe('406 crc32 not match');
    expect(existsSync(stored(key))).toBe(false);
    const good = await formUpload(host.base, { file, token: token({ key }), key, extra: { crc32: String(crc32(file)) } });
    expect(good.status).toBe(200);
  });

  it('refuses a renamed non-image, whatever its name and claimed type', async () => {
    const key = freshKey();
    const text = Buffer.from('<html><script>alert(1)</script></html>'.repeat(50));
    const res = await formUpload(host.base, { file: text, filename: 'photo.png', type: 'image/png', token: token({ key }), key });
    expect(await errorOf(res)).toBe('403 limited mimeType: this file type (unknown) is forbidden to upload');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const res2 = await formUpload(host.base, { file: svg, filename: 'a.svg', type: 'image/svg+xml', token: token({ key }), key });
    expect(res2.status).toBe(403);
    expect(existsSync(stored(key))).toBe(false);
  });

  it('applies the policy mimeLimit to the detected type', async () => {
    const key = freshKey();
    const res = await formUpload(host.base, { file: pngBytes(3000), token: token({ key, mimeLimit: 'image/jpeg' }), key });
    expect(await errorOf(res)).toBe('403 limited mimeType: this file type (image/png) is forbidden to upload');
  });

  it('refuses an oversize file (host limit and policy fsizeLimit) and keeps nothing', async () => {
    const key = freshKey();
    const big = await formUpload(host.base, { file: pngBytes(3 * MB + 1), token: token({ key }), key });
    expect(await errorOf(big)).toBe('413 file exceeds the size limit');
    const overPolicy = await formUpload(host.base, { file: pngBytes(20_000), token: token({ key, fsizeLimit: 10_000 }), key });
    expect(await errorOf(overPolicy)).toBe('413 file exceeds the size limit');
    expect(existsSync(stored(key))).toBe(false);
    expect(await readdir(join(host.dataDir, 'uploads', 'tmp'))).toEqual([]);
  });

  it('refuses an expired token, a tampered signature, a foreign key pair and a missing token', async () => {
    const key = freshKey();
    const file = pngBytes(2000);
    const expired = token({ key, deadline: nowSeconds() - 1 });
    expect(await errorOf(await formUpload(host.base, { file, token: expired, key }))).toBe('401 token out of date');
    const [ak, sig, policy] = token({ key }).split(':') as [string, string, string];
    const tampered = `${ak}:${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}:${policy}`;
    expect(await errorOf(await formUpload(host.base, { file, token: tampered, key }))).toBe('401 bad token');
    const foreign = token({ key }, { accessKey: KEYS.accessKey, secretKey: 'guessed' });
    expect(await errorOf(await formUpload(host.base, { file, token: foreign, key }))).toBe('401 bad token');
    expect(await errorOf(await formUpload(host.base, { file, key }))).toBe('401 token not specified');
    expect(existsSync(stored(key))).toBe(false);
  });

  it('refuses a token scoped to another bucket, or to another key', async () => {
    const key = freshKey();
    const file = pngBytes(2000);
    const otherBucket = token({ scope: `other-bucket:${key}` });
    expect(await errorOf(await formUpload(host.base, { file, token: otherBucket, key }))).toBe('631 no such bucket');
    const otherKey = token({ key: 'evidence/proof/202603/someone-else' });
    expect(await errorOf(await formUpload(host.base, { file, token: otherKey, key }))).toBe("403 key doesn't match with scope");
  });

  it('never overwrites an existing key', async () => {
    const key = freshKey();
    const first = pngBytes(1500, 5);
    expect((await formUpload(host.base, { file: first, token: token({ key }), key })).status).toBe(200);
    const second = await formUpload(host.base, { file: pngBytes(1500, 6), token: token({ key }), key });
    expect(second.status).toBe(614);
    expect(await second.json()).toEqual({ error: 'file exists' });
    expect((await readFile(stored(key))).equals(first)).toBe(true);
    // A key that would need an existing file as its folder is a conflict too.
    const under = `${key}/child`;
    expect((await formUpload(host.base, { file: first, token: token({ key: under }), key: under })).status).toBe(614);
  });
});

describe('key traversal', () => {
  const attempts = ['../escape', '../../etc/passwd', '/etc/passwd', 'a/../../escape', 'a//b', 'a\\..\\b', '.hidden', 'a/./b', 'a/', ''];

  it.each(attempts)('refuses the key %j in a validly signed token, form and chunked', async (bad) => {
    const t = token({ key: bad });
    const form = await formUpload(host.base, { file: pngBytes(1000), token: t, key: bad });
    expect([400, 401]).toContain(form.status);
    const init = await fetch(`${host.base}${PREFIX}/buckets/${BUCKET}/objects/${encodeKey(bad) || '~'}/uploads`, {
      method: 'POST',
      headers: upTokenHeader(t),
    });
    expect([400, 401]).toContain(init.status);
    // Nothing was written anywhere next to or above the files folder.
    expect((await readdir(join(host.dataDir, 'uploads'))).sort()).toEqual(['files', 'multipart', 'tmp']);
    expect(existsSync(join(dirname(host.dataDir), 'escape'))).toBe(false);
  });

  it('serves nothing outside the files folder', async () => {
    const key = freshKey();
    await formUpload(host.base, { file: pngBytes(1000), token: token({ key }), key });
    for (const path of [
      `${PREFIX}/files/../multipart`,
      `${PREFIX}/files/../../uploads/files/${key}`,
      `${PREFIX}/files/%2e%2e/%2e%2e/upload-keys.json`,
      `${PREFIX}/files/..%2f..%2fetc%2fpasswd`,
      `${PREFIX}/files/evidence`,
    ]) {
      const res = await rawGet(host.base, path);
      expect([403, 404], path).toContain(res.status);
    }
  });
});

describe('chunked upload (multipart v2)', () => {
  it('uploads several parts concurrently, completes, and serves the joined file', async () => {
    const key = freshKey();
    const t = token({ key, returnBody: RETURN_BODY });
    const file = pngBytes(2 * MB + 300_000, 9);
    const uploadIdRes = await fetch(objectUrl(host.base, key), { method: 'POST', headers: upTokenHeader(t) });
    expect(uploadIdRes.status).toBe(200);
    const init = (await uploadIdRes.json()) as { uploadId: string; expireAt: number };
    expect(init.uploadId).toMatch(/^[0-9a-f]{32}$/);
    expect(init.expireAt).toBeGreaterThan(nowSeconds());

    const chunks = [file.subarray(0, MB), file.subarray(MB, 2 * MB), file.subarray(2 * MB)];
    const answers = await Promise.all(
      chunks.map(async (chunk, i) => {
        const md5 = createHash('md5').update(chunk).digest('hex');
        const res = await putPart(host.base, key, t, init.uploadId, i + 1, chunk, { 'content-md5': md5 });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { etag: string; md5: string };
        expect(body.md5).toBe(md5);
        return body;
      }),
    );
    const res = await complete(host.base, key, t, init.uploadId, {
      parts: answers.map((a, i) => ({ etag: a.etag, partNumber: i + 1 })),
      fname: 'big.png',
      mimeType: 'image/png',
      customVars: { 'x:note': 'chunked' },
      metadata: { 'x-qn-meta-origin': 'test' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      url: `/upload/files/${key}`,
      key,
      hash: qetagOf(file),
      fsize: file.length,
      mimeType: 'image/png',
      name: 'big.png',
      note: 'chunked',
    });
    expect((await readFile(stored(key))).equals(file)).toBe(true);
    // The upload id is spent: its parts are gone and it is unknown now.
    expect(existsSync(join(host.dataDir, 'uploads', 'multipart', init.uploadId))).toBe(false);
    const reuse = await complete(host.base, key, t, init.uploadId, { parts: [{ etag: answers[0]!.etag, partNumber: 1 }] });
    expect(reuse.status).toBe(612);
  });

  it('refuses complete with wrong etags, then completes with the right ones (parts are kept)', async () => {
    const key = freshKey();
    const t = token({ key });
    const id = await initUpload(host.base, key, t);
    const a = (await (await putPart(host.base, key, t, id, 1, pngBytes(MB, 1))).json()) as { etag: string };
    const b = (await (await putPart(host.base, key, t, id, 2, pngBytes(1000, 2))).json()) as { etag: string };

    const wrong = await complete(host.base, key, t, id, {
      parts: [
        { etag: a.etag, partNumber: 1 },
        { etag: a.etag, partNumber: 2 },
      ],
    });
    expect(await errorOf(wrong)).toBe('400 invalid part 2: etag does not match');
    const missing = await complete(host.base, key, t, id, {
      parts: [
        { etag: a.etag, partNumber: 1 },
        { etag: b.etag, partNumber: 3 },
      ],
    });
    expect(missing.status).toBe(400);
    const unordered = await complete(host.base, key, t, id, {
      parts: [
        { etag: b.etag, partNumber: 2 },
        { etag: a.etag, partNumber: 1 },
      ],
    });
    expect(await errorOf(unordered)).toBe('400 partNumber must be ascending, 1 to 10000');
    const badVars = await complete(host.base, key, t, id, { parts: [{ etag: a.etag, partNumber: 1 }], customVars: { note: 'x' } });
    expect(await errorOf(badVars)).toBe('400 customVars keys must start with x:');
    expect(existsSync(stored(key))).toBe(false);

    const right = await complete(host.base, key, t, id, {
      parts: [
        { etag: a.etag, partNumber: 1 },
        { etag: b.etag, partNumber: 2 },
      ],
    });
    expect(right.status).toBe(200);
  });

  it('refuses parts smaller than 1 MB except the last', async () => {
    const key = freshKey();
    const t = token({ key });
    const id = await initUpload(host.base, key, t);
    const a = (await (await putPart(host.base, key, t, id, 1, pngBytes(1000))).json()) as { etag: string };
    const b = (await (await putPart(host.base, key, t, id, 2, pngBytes(1000))).json()) as { etag: string };
    const res = await complete(host.base, key, t, id, {
      parts: [
        { etag: a.etag, partNumber: 1 },
        { etag: b.etag, partNumber: 2 },
      ],
    });
    expect(await errorOf(res)).toBe('400 part 1 is smaller than 1 MB');
  });

  it('answers 612 on the raw response for an unknown or malformed upload id', async () => {
    const key = freshKey();
    const t = token({ key });
    for (const id of ['0123456789abcdef0123456789abcdef', 'not-an-id', '0123456789ABCDEF0123456789ABCDEF']) {
      const part = await putPart(host.base, key, t, id, 1, pngBytes(1000));
      expect(part.status).toBe(612);
      expect(part.statusText).toBe('No Such Upload');
      expect(part.headers.get('content-type')).toContain('application/json');
      expect(part.headers.get('access-control-allow-origin')).toBe('*');
      expect(await part.json()).toEqual({ error: 'no such uploadId' });
      const done = await complete(host.base, key, t, id, { parts: [{ etag: 'x', partNumber: 1 }] });
      expect(done.status).toBe(612);
    }
  });

  it('answers 612 for an upload id of another key', async () => {
    const key = freshKey();
    const id = await initUpload(host.base, key, token({ key }));
    const other = freshKey();
    const res = await putPart(host.base, other, token({ key: other }), id, 1, pngBytes(1000));
    expect(res.status).toBe(612);
  });

  it('refuses a non-image at its first part, an oversize upload, and a wrong Content-MD5', async () => {
    const key = freshKey();
    const t = token({ key });
    const id = await initUpload(host.base, key, t);
    const text = await putPart(host.base, key, t, id, 1, Buffer.alloc(MB, 'a'));
    expect(await errorOf(text)).toBe('403 limited mimeType: this file type (unknown) is forbidden to upload');

    expect((await putPart(host.base, key, t, id, 1, pngBytes(2 * MB))).status).toBe(200);
    const over = await putPart(host.base, key, t, id, 2, pngBytes(MB + 1));
    expect(await errorOf(over)).toBe('413 file exceeds the size limit');
    const md5 = await putPart(host.base, key, t, id, 2, pngBytes(1000), { 'content-md5': '0'.repeat(32) });
    expect(await errorOf(md5)).toBe('400 Content-MD5 not match');
  });

  it('checks the token on every call: expired, tampered, other bucket in the URL', async () => {
    const key = freshKey();
    const t = token({ key });
    const id = await initUpload(host.base, key, t);
    const expired = token({ key, deadline: nowSeconds() - 5 });
    expect(await errorOf(await putPart(host.base, key, expired, id, 1, pngBytes(1000)))).toBe('401 token out of date');
    expect(await errorOf(await putPart(host.base, key, `${t}x`, id, 1, pngBytes(1000)))).toBe('401 bad token');
    const noAuth = await fetch(`${objectUrl(host.base, key)}/${id}/1`, { method: 'PUT', body: pngBytes(1000) });
    expect(await errorOf(noAuth)).toBe('401 token not specified');
    const otherBucket = await fetch(objectUrl(host.base, key, 'other-bucket'), { method: 'POST', headers: upTokenHeader(t) });
    expect(await errorOf(otherBucket)).toBe('631 no such bucket');
    const otherKey = await fetch(objectUrl(host.base, 'evidence/proof/202603/elsewhere'), { method: 'POST', headers: upTokenHeader(t) });
    expect(await errorOf(otherKey)).toBe("403 key doesn't match with scope");
  });

  it('refuses to start a chunked upload for a key that exists, and aborts on DELETE', async () => {
    const key = freshKey();
    const t = token({ key });
    const id = await initUpload(host.base, key, t);
    const abort = await fetch(`${objectUrl(host.base, key)}/${id}`, { method: 'DELETE', headers: upTokenHeader(t) });
    expect(abort.status).toBe(200);
    expect((await putPart(host.base, key, t, id, 1, pngBytes(1000))).status).toBe(612);

    await formUpload(host.base, { file: pngBytes(1000), token: t, key });
    const init = await fetch(objectUrl(host.base, key), { method: 'POST', headers: upTokenHeader(t) });
    expect(init.status).toBe(614);
  });
});

describe('host housekeeping', () => {
  it('forgets upload ids past their lifetime', async () => {
    let clock = Date.now();
    const local = await startHost({ now: () => clock, uploadIdTtlSeconds: 60 });
    try {
      const key = freshKey();
      const id = await initUpload(local.base, key, token({ key, deadline: nowSeconds() + 3600 }));
      clock += 61_000;
      const res = await putPart(local.base, key, token({ key, deadline: nowSeconds() + 3600 }), id, 1, pngBytes(1000));
      expect(res.status).toBe(612);
    } finally {
      await local.close();
    }
  });

  it('answers the CORS preflight and the provider 404 for unknown paths under its prefix', async () => {
    const pre = await fetch(`${host.base}${PREFIX}/buckets/b/objects/k/uploads/x/1`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('Content-MD5');
    const unknown = await fetch(`${host.base}${PREFIX}/nothing/here`);
    expect(await errorOf(unknown)).toBe('404 no such route');
    const missing = await fetch(`${host.base}${signedPath('evidence/none')}`);
    expect(missing.status).toBe(404);
  });

  it('refuses a form upload that is not multipart', async () => {
    const res = await fetch(`${host.base}${PREFIX}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(await errorOf(res)).toBe('400 expected multipart/form-data');
  });
});

describe('evidence served only through short-lived signed links (decision 0082)', () => {
  const file = pngBytes(2000, 9);
  let key: string;
  beforeAll(async () => {
    key = freshKey();
    expect((await formUpload(host.base, { file, token: token({ key }), key })).status).toBe(200);
  });
  const bodyOf = async (res: Response) => Buffer.from(await res.arrayBuffer());
  /** `path?e=&token=` with the given deadline, signed with the host's secret. */
  const signedAt = (path: string, deadline: number) => localEvidenceUrls(EVIDENCE_SECRET, 300, 300).sign(path, deadline);

  it('refuses the bare path of a private image, without the bytes (GET and HEAD)', async () => {
    const bare = await fetch(`${host.base}${PREFIX}/files/${key}`);
    expect(bare.status).toBe(403);
    expect((await bodyOf(bare)).includes(file.subarray(0, 64))).toBe(false);
    expect((await fetch(`${host.base}${PREFIX}/files/${key}`, { method: 'HEAD' })).status).toBe(403);
  });

  it('refuses a forged signature that looks valid, an expired link and a signature for another path', async () => {
    const good = signedPath(key);
    const forged = good.replace(
      /token=[^&]+$/,
      `token=${
        localEvidenceUrls('another-secret-0123456789abcdefghij', 300, 300)
          .sign(`${PREFIX}/files/${key}`, nowSeconds() + 300)
          .split('token=')[1]
      }`,
    );
    expect(forged).not.toBe(good);
    const expired = signedAt(`${PREFIX}/files/${key}`, nowSeconds() - 1);
    const other = freshKey();
    await formUpload(host.base, { file: pngBytes(1000, 4), token: token({ key: other }), key: other });
    const otherQuery = signedPath(other).slice(signedPath(other).indexOf('?'));
    const longer = `${PREFIX}/files/${key}?e=${nowSeconds() + 999_999}&token=${good.split('token=')[1]}`;
    for (const path of [forged, expired, `${PREFIX}/files/${key}${otherQuery}`, longer, `${PREFIX}/files/${key}?e=&token=`]) {
      const res = await fetch(`${host.base}${path}`);
      expect(res.status, path).toBe(403);
      expect((await bodyOf(res)).includes(file.subarray(0, 64)), path).toBe(false);
    }
  });

  it('serves a signed link with private caching that never outlives it', async () => {
    const res = await fetch(`${host.base}${signedPath(key, 120)}`);
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).equals(file)).toBe(true);
    const cache = res.headers.get('cache-control') ?? '';
    expect(cache).toMatch(/^private, max-age=\d+$/);
    expect(Number(/max-age=(\d+)/.exec(cache)![1])).toBeLessThanOrEqual(120);
  });

  it('keeps avatars public: served without a signature, cached as immutable', async () => {
    const avatar = 'avatar/7/0123456789abcdef0123456789abcdef';
    expect((await formUpload(host.base, { file, token: token({ key: avatar }), key: avatar })).status).toBe(200);
    const res = await fetch(`${host.base}${PREFIX}/files/${avatar}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await bodyOf(res)).equals(file)).toBe(true);
  });
});
