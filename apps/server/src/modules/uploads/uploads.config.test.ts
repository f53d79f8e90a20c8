import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUploadsConfig, resolveEvidenceUrlSecret, resolveUploadKeys, UploadConfigError } from './uploads.config.ts';

const read = (env: Record<string, string>) => readUploadsConfig((name) => env[name]);
const PROVIDER = { QINIU_ACCESS_KEY: 'ak', QINIU_SECRET_KEY: 'sk', QINIU_BUCKET: 'b', QINIU_DOMAIN: 'https://img.example.com/' };

describe('upload configuration', () => {
  it('defaults to the embedded host, 20 MB per image, 15-minute tokens, 15-minute evidence links', () => {
    const links = { evidenceUrlTtlSeconds: 900, evidenceExportUrlTtlSeconds: 86_400, evidenceUrlSecret: null };
    expect(read({})).toEqual({ provider: 'local', maxImageBytes: 20 * 1024 * 1024, tokenTtlSeconds: 900, ...links });
    expect(read({ UPLOAD_MAX_IMAGE_MB: '5', UPLOAD_TOKEN_TTL_SECONDS: '120' })).toEqual({
      provider: 'local',
      maxImageBytes: 5 * 1024 * 1024,
      tokenTtlSeconds: 120,
      ...links,
    });
  });

  it('reads the evidence link lifetimes and secret, and names a bad one', () => {
    const secret = 's'.repeat(32);
    expect(read({ EVIDENCE_URL_TTL_MINUTES: '5', EVIDENCE_URL_EXPORT_HOURS: '48', EVIDENCE_URL_SECRET: secret })).toMatchObject({
      evidenceUrlTtlSeconds: 300,
      evidenceExportUrlTtlSeconds: 48 * 3600,
      evidenceUrlSecret: secret,
    });
    expect(() => read({ EVIDENCE_URL_TTL_MINUTES: '0' })).toThrow(/EVIDENCE_URL_TTL_MINUTES/);
    expect(() => read({ EVIDENCE_URL_EXPORT_HOURS: 'a day' })).toThrow(/EVIDENCE_URL_EXPORT_HOURS/);
    expect(() => read({ EVIDENCE_URL_SECRET: 'short' })).toThrow(/EVIDENCE_URL_SECRET must be at least 32 characters/);
  });

  it('keeps a generated evidence link secret, so a second instance with the same data directory or variable checks the first one’s links', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clearplay-evidence-secret-'));
    try {
      const first = resolveEvidenceUrlSecret(dir, null);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(resolveEvidenceUrlSecret(dir, null)).toBe(first);
      expect(((await stat(join(dir, 'evidence-url-secret'))).mode & 0o777).toString(8)).toBe('600');
      expect(resolveEvidenceUrlSecret(dir, 'c'.repeat(40))).toBe('c'.repeat(40));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('uses the provider when its four variables are set', () => {
    expect(read(PROVIDER)).toMatchObject({
      provider: 'qiniu',
      accessKey: 'ak',
      secretKey: 'sk',
      bucket: 'b',
      publicBaseUrl: 'https://img.example.com',
      region: null,
    });
    expect(read({ ...PROVIDER, QINIU_DOMAIN: 'cdn.example.com', QINIU_REGION: 'z0' })).toMatchObject({
      publicBaseUrl: 'https://cdn.example.com',
      region: 'z0',
    });
    expect(read({ ...PROVIDER, QINIU_DOMAIN: 'http://127.0.0.1:9000/bucket' })).toMatchObject({
      publicBaseUrl: 'http://127.0.0.1:9000/bucket',
    });
  });

  it('names the variable that is wrong or missing', () => {
    const variableOf = (env: Record<string, string>) => {
      try {
        read(env);
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(UploadConfigError);
        return (error as UploadConfigError).variable;
      }
    };
    expect(variableOf({ QINIU_ACCESS_KEY: 'ak' })).toBe('QINIU_SECRET_KEY');
    expect(variableOf({ ...PROVIDER, QINIU_BUCKET: ' ' })).toBe('QINIU_BUCKET');
    expect(variableOf({ ...PROVIDER, QINIU_REGION: 'mars' })).toBe('QINIU_REGION');
    expect(variableOf({ QINIU_REGION: 'z0' })).toBe('QINIU_REGION');
    expect(variableOf({ UPLOAD_MAX_IMAGE_MB: '0' })).toBe('UPLOAD_MAX_IMAGE_MB');
    expect(variableOf({ UPLOAD_MAX_IMAGE_MB: '2.5' })).toBe('UPLOAD_MAX_IMAGE_MB');
  });

  it('creates the embedded key pair once and reads it back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clearplay-keys-'));
    try {
      const first = resolveUploadKeys(dir);
      expect(first.accessKey).toMatch(/^local-[0-9a-f]{24}$/);
      expect(first.secretKey.length).toBeGreaterThanOrEqual(40);
      expect(resolveUploadKeys(dir)).toEqual(first);
      await writeFile(join(dir, 'upload-keys.json'), 'not json');
      expect(() => resolveUploadKeys(dir)).toThrow(/delete it/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
