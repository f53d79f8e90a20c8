import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../http/route-context.ts';
import { AppError } from '../../lib/errors.ts';
import errorsPlugin from '../../plugins/errors.ts';
import type { UploadTokenData } from '@clearplay/contract';
import localUploadHost from './host/local-host.ts';
import { formUpload, pngBytes } from './host/test-support.ts';
import { readPutPolicy, verifyUploadToken } from './upload-token.ts';
import {
  LOCAL_BUCKET,
  LOCAL_UPLOAD_PREFIX,
  readUploadsConfig,
  resolveEvidenceUrlSecret,
  resolveUploadKeys,
  type UploadsConfig,
} from './uploads.config.ts';
import uploadRoutes from './uploads.routes.ts';

interface Envelope<T> {
  status: number;
  msg: string;
  data: T;
}

/**
 * A minimal app: the foundation's error handler, a stand-in for its auth plugin (a bearer
 * header "Bearer test-user" counts as logged in), the token route under /api and, in the
 * embedded mode, the upload host under /upload, as app.ts will wire them.
 */
async function buildTestApp(uploads: UploadsConfig, dataDir: string): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify({
    logger: false,
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  await app.register(errorsPlugin);
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.auth === 'user' && request.headers.authorization !== 'Bearer test-user') {
      throw new AppError(401, 'auth.required');
    }
    // The signed-in user the token route reads (its id is in an avatar's key).
    if (request.headers.authorization === 'Bearer test-user') request.user = { id: TEST_USER_ID } as AuthUser;
  });
  await app.register(uploadRoutes, { prefix: '/api', config: { dataDir, uploads } });
  if (uploads.provider === 'local') {
    const keys = resolveUploadKeys(dataDir);
    await app.register(localUploadHost, {
      prefix: LOCAL_UPLOAD_PREFIX,
      dataDir,
      maxImageBytes: uploads.maxImageBytes,
      bucket: LOCAL_BUCKET,
      ...keys,
      evidenceUrlSecret: resolveEvidenceUrlSecret(dataDir, uploads.evidenceUrlSecret),
    });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { app, base: `http://127.0.0.1:${address.port}` };
}

const LOGGED_IN = { authorization: 'Bearer test-user' };
const TEST_USER_ID = 7;

describe('GET /api/admin/upload/token (embedded upload host)', () => {
  let dataDir: string;
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'clearplay-upload-routes-'));
    ({ app, base } = await buildTestApp(
      readUploadsConfig(() => undefined),
      dataDir,
    ));
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const getToken = async (query: string, headers: Record<string, string> = LOGGED_IN) => {
    const res = await fetch(`${base}/api/admin/upload/token?${query}`, { headers });
    return { http: res.status, body: (await res.json()) as Envelope<UploadTokenData> };
  };

  it('needs a login', async () => {
    const { http, body } = await getToken('purpose=proof', {});
    expect(http).toBe(401);
    expect(body.status).toBe(401);
  });

  it('issues a short-lived token for a fresh unguessable key under the purpose prefix', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { http, body } = await getToken('purpose=proof');
    expect(http).toBe(200);
    expect(body.status).toBe(200);
    const data = body.data;
    expect(data.key).toMatch(/^evidence\/proof\/\d{6}\/[0-9a-f]{32}$/);
    expect(data.target).toEqual({ provider: 'local', path: '/upload' });
    expect(data.maxBytes).toBe(20 * 1024 * 1024);

    const policy = verifyUploadToken(data.uploadToken, resolveUploadKeys(dataDir), before);
    expect(policy).toMatchObject({ scope: `${LOCAL_BUCKET}:${data.key}`, insertOnly: 1, fsizeLimit: 20 * 1024 * 1024, detectMime: 1 });
    expect(policy.mimeLimit).not.toContain('svg');
    expect(data.deadline).toBe(policy.deadline);
    expect(policy.deadline - before).toBeGreaterThanOrEqual(900);
    expect(policy.deadline - before).toBeLessThanOrEqual(902);

    const second = await getToken('purpose=proof');
    expect(second.body.data.key).not.toBe(data.key);
  });

  it('keeps its key pair in the data directory, readable by the owner only', async () => {
    const info = await stat(join(dataDir, 'upload-keys.json'));
    expect(info.mode & 0o777).toBe(0o600);
  });

  it('gives a token that the embedded host accepts, and the result URL (signed) serves the image', async () => {
    const { body } = await getToken('purpose=cert');
    const file = pngBytes(10_000);
    const res = await formUpload(base, { file, token: body.data.uploadToken, key: body.data.key });
    expect(res.status).toBe(200);
    const result = (await res.json()) as { url: string; key: string; fsize: number; mimeType: string };
    expect(result).toMatchObject({ key: body.data.key, fsize: 10_000, mimeType: 'image/png' });
    // The uploader shows the image from a link signed for the token's life and one link lifetime more.
    const signed = new RegExp(`^/upload/files/${body.data.key}\\?e=(\\d+)&token=[\\w-]+$`);
    expect(result.url).toMatch(signed);
    expect(Number(signed.exec(result.url)![1])).toBe(body.data.deadline + 900);
    const served = await fetch(`${base}${result.url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);
    expect((await fetch(`${base}/upload/files/${body.data.key}`)).status).toBe(403);
  });

  it('re-issues a token for a key it issued (resume), and refuses any other key', async () => {
    const first = (await getToken('purpose=env')).body.data;
    const again = await getToken(`purpose=env&key=${encodeURIComponent(first.key)}`);
    expect(again.http).toBe(200);
    expect(again.body.data.key).toBe(first.key);
    expect(readPutPolicy(again.body.data.uploadToken)?.scope).toBe(`${LOCAL_BUCKET}:${first.key}`);

    const madeUp = `evidence/env/${first.key.split('/')[2]}/${'ab'.repeat(16)}`; // the shape of a key, not issued to this user
    for (const key of ['../../etc/passwd', 'evidence/env/202601/short', first.key.replace('evidence/env', 'evidence/proof'), madeUp]) {
      const refused = await getToken(`purpose=env&key=${encodeURIComponent(key)}`);
      expect(refused.http, key).toBe(400);
      expect(refused.body.status).toBe(400);
    }
  });

  it('avatar: a key naming the caller, 2 MB at most, JPEG/PNG/GIF/WebP only; the host holds the token to it', async () => {
    const { http, body } = await getToken('purpose=avatar');
    expect(http).toBe(200);
    const data = body.data;
    expect(data.key).toMatch(new RegExp(`^avatar/${TEST_USER_ID}/[0-9a-f]{32}$`));
    expect(data.maxBytes).toBe(2 * 1024 * 1024);
    const policy = verifyUploadToken(data.uploadToken, resolveUploadKeys(dataDir), Math.floor(Date.now() / 1000));
    expect(policy).toMatchObject({ fsizeLimit: 2 * 1024 * 1024, mimeLimit: 'image/jpeg;image/png;image/gif;image/webp', insertOnly: 1 });

    // A BMP is an image, but not an avatar's type; a PNG one byte over the limit is too big.
    const bmp = Buffer.alloc(2000);
    bmp.write('BM', 0, 'latin1');
    const refusedType = await formUpload(base, { file: bmp, token: data.uploadToken, key: data.key });
    expect(refusedType.status).toBe(403);
    const big = await getToken('purpose=avatar');
    const refusedSize = await formUpload(base, {
      file: pngBytes(2 * 1024 * 1024 + 1),
      token: big.body.data.uploadToken,
      key: big.body.data.key,
    });
    expect(refusedSize.status).toBe(413);
    const taken = await formUpload(base, { file: pngBytes(5000), token: data.uploadToken, key: data.key });
    expect(taken.status).toBe(200);
    expect(((await taken.json()) as { url: string }).url).toBe(`/upload/files/${data.key}`);

    // Resuming: its own avatar key again, yes; another user's, or an evidence key as an avatar, no.
    expect((await getToken(`purpose=avatar&key=${encodeURIComponent(data.key)}`)).http).toBe(200);
    const others = data.key.replace(`avatar/${TEST_USER_ID}/`, 'avatar/8/');
    expect((await getToken(`purpose=avatar&key=${encodeURIComponent(others)}`)).http).toBe(400);
    const evidence = (await getToken('purpose=cert')).body.data.key;
    expect((await getToken(`purpose=avatar&key=${encodeURIComponent(evidence)}`)).http).toBe(400);
  });

  it('refuses an unknown purpose', async () => {
    const { http, body } = await getToken('purpose=portrait');
    expect(http).toBe(400);
    expect(body.status).toBe(400);
  });
});

describe('GET /api/admin/upload/token (cloud provider)', () => {
  it('signs with the configured keys for the configured bucket and public domain', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'clearplay-upload-routes-'));
    const env: Record<string, string> = {
      QINIU_ACCESS_KEY: 'cloud-ak',
      QINIU_SECRET_KEY: 'cloud-sk',
      QINIU_BUCKET: 'evidence-prod',
      QINIU_DOMAIN: 'img.example.com',
      QINIU_REGION: 'z2',
    };
    const { app, base } = await buildTestApp(
      readUploadsConfig((name) => env[name]),
      dataDir,
    );
    try {
      const res = await fetch(`${base}/api/admin/upload/token?purpose=proof`, { headers: LOGGED_IN });
      const { data } = (await res.json()) as Envelope<UploadTokenData>;
      expect(data.target).toEqual({ provider: 'qiniu', region: 'z2', upprotocol: 'https' });
      const policy = verifyUploadToken(data.uploadToken, { accessKey: 'cloud-ak', secretKey: 'cloud-sk' }, 0);
      expect(policy.scope).toBe(`evidence-prod:${data.key}`);
      // The bucket is private: the answer carries the provider's signed download URL of the key, made by its SDK.
      const deadline = data.deadline + 900;
      const manager = new qiniu.rs.BucketManager(new qiniu.auth.digest.Mac('cloud-ak', 'cloud-sk'), new qiniu.conf.Config());
      expect(JSON.parse(policy.returnBody!.replace('$(fsize)', '1'))).toMatchObject({
        url: manager.privateDownloadUrl('https://img.example.com', data.key, deadline),
      });
      expect(manager.privateDownloadUrl('https://img.example.com', data.key, deadline)).toMatch(
        new RegExp(`^https://img\\.example\\.com/${data.key}\\?e=${deadline}&token=cloud-ak:[\\w=-]+$`),
      );
      // No embedded host, no local key pair.
      expect((await fetch(`${base}/upload/files/x`)).status).toBe(404);
      await expect(stat(join(dataDir, 'upload-keys.json'))).rejects.toThrow();
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
