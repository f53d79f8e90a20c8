/** Helpers of the uploads tests: sample images, a local upload host on a real port, raw HTTP. */
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { localEvidenceUrls } from '../evidence/evidence-urls.ts';
import localUploadHost, { type LocalUploadHostOptions } from './local-host.ts';
import { signUploadToken, urlSafeBase64Encode, type PutPolicy, type UploadKeys } from '../upload-token.ts';

export const KEYS: UploadKeys = { accessKey: 'test-ak', secretKey: 'test-sk-0123456789' };
export const BUCKET = 'clearplay';
export const PREFIX = '/upload';
export const MB = 1024 * 1024;
/** The test host's secret for evidence links. */
export const EVIDENCE_SECRET = 'test-evidence-secret-0123456789abcdef';

/** A stored file's path on the test host, signed for `seconds` (decision 0082). */
export const signedPath = (key: string, seconds = 300): string =>
  localEvidenceUrls(EVIDENCE_SECRET, seconds, seconds).sign(`${PREFIX}/files/${key}`, nowSeconds() + seconds);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** `size` bytes that start like a PNG (the host only reads the magic bytes), the rest varied. */
export function pngBytes(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed * 7) & 0xff;
  Buffer.from(PNG_SIGNATURE).copy(bytes, 0);
  return bytes;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function token(policy: Partial<PutPolicy> & { key?: string }, keys: UploadKeys = KEYS): string {
  const { key, ...rest } = policy;
  return signUploadToken({ scope: key === undefined ? BUCKET : `${BUCKET}:${key}`, deadline: nowSeconds() + 600, ...rest }, keys);
}

export const encodeKey = (key: string) => urlSafeBase64Encode(key);

export interface TestHost {
  app: FastifyInstance;
  base: string;
  dataDir: string;
  close: () => Promise<void>;
}

export async function startHost(overrides: Partial<LocalUploadHostOptions> = {}): Promise<TestHost> {
  const dataDir = await mkdtemp(join(tmpdir(), 'clearplay-uploads-'));
  const app = Fastify({ logger: false });
  await app.register(localUploadHost, {
    prefix: PREFIX,
    dataDir,
    maxImageBytes: 20 * MB,
    accessKey: KEYS.accessKey,
    secretKey: KEYS.secretKey,
    bucket: BUCKET,
    evidenceUrlSecret: EVIDENCE_SECRET,
    ...overrides,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    app,
    base: `http://127.0.0.1:${address.port}`,
    dataDir,
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The SDK's form upload: file first, then token, key, fname (qiniu-js 3.4.2 Direct.run). */
export async function formUpload(
  base: string,
  fields: { file?: Buffer; filename?: string; type?: string; token?: string; key?: string; extra?: Record<string, string> },
): Promise<Response> {
  const form = new FormData();
  if (fields.file) form.append('file', new Blob([fields.file], { type: fields.type ?? 'image/png' }), fields.filename ?? 'photo.png');
  if (fields.token !== undefined) form.append('token', fields.token);
  if (fields.key !== undefined) form.append('key', fields.key);
  form.append('fname', fields.filename ?? 'photo.png');
  for (const [name, value] of Object.entries(fields.extra ?? {})) form.append(name, value);
  return fetch(`${base}${PREFIX}`, { method: 'POST', body: form });
}

export function objectUrl(base: string, key: string, bucket = BUCKET): string {
  return `${base}${PREFIX}/buckets/${bucket}/objects/${encodeKey(key)}/uploads`;
}

export const upTokenHeader = (uploadToken: string) => ({ authorization: `UpToken ${uploadToken}` });

export async function initUpload(base: string, key: string, uploadToken: string): Promise<string> {
  const res = await fetch(objectUrl(base, key), { method: 'POST', headers: upTokenHeader(uploadToken) });
  if (res.status !== 200) throw new Error(`init failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { uploadId: string };
  return body.uploadId;
}

export function putPart(
  base: string,
  key: string,
  uploadToken: string,
  uploadId: string,
  n: number,
  bytes: Buffer,
  headers: Record<string, string> = {},
) {
  return fetch(`${objectUrl(base, key)}/${uploadId}/${n}`, {
    method: 'PUT',
    headers: { ...upTokenHeader(uploadToken), 'content-type': 'application/octet-stream', ...headers },
    body: bytes,
  });
}

export function complete(base: string, key: string, uploadToken: string, uploadId: string, body: unknown) {
  return fetch(`${objectUrl(base, key)}/${uploadId}`, {
    method: 'POST',
    headers: { ...upTokenHeader(uploadToken), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A GET whose path and headers are sent exactly as written (fetch would normalise `..`, and add `cache-control: no-cache` to a conditional request). */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}
