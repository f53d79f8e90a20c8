import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUploadsConfig, resolveEvidenceUrlSecret, resolveUploadKeys, UploadConfigError } from './uploads.config.ts';

const read = (env: Record<string, string>) => readUploadsConfig((name) => env[name]);
/** The variable a refusal names, or 'accepted'. */
const variableOf = (env: Record<string, string>) => {
  try {
    read(env);
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(UploadConfigError);
    return (error as UploadConfigError).variable;
  }
};
const PROVIDER = { QINIU_ACCESS_KEY: 'ak', QINIU_SECRET_KEY: 'sk', QINIU_BUCKET: 'b', QINIU_DOMAIN: 'https://img.example.com/' };

describe('upload configuration', () => {
  it('defaults to the embedded host, 20 MB per image, 15-minute tokens, 15-minute evidence links', () => {
    const links = { evidenceUrlTtlSeconds: 900, evidenceExportUrlTtlSeconds: 86_400, evidenceUrlSecret: null };
    expect(read({})).toEqual({ provider: 'local', maxImageBytes: 20 * 1024 * 1024, tokenTtlSeconds: 900, uploadKeys: null, ...links });
    expect(read({ UPLOAD_MAX_IMAGE_MB: '5', UPLOAD_TOKEN_TTL_SECONDS: '120' })).toEqual({
      provider: 'local',
      maxImageBytes: 5 * 1024 * 1024,
      tokenTtlSeconds: 120,
      uploadKeys: null,
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
    expect(variableOf({ QINIU_ACCESS_KEY: 'ak' })).toBe('QINIU_SECRET_KEY');
    expect(variableOf({ ...PROVIDER, QINIU_BUCKET: ' ' })).toBe('QINIU_BUCKET');
    expect(variableOf({ ...PROVIDER, QINIU_REGION: 'mars' })).toBe('QINIU_REGION');
    expect(variableOf({ QINIU_REGION: 'z0' })).toBe('QINIU_REGION');
    expect(variableOf({ UPLOAD_MAX_IMAGE_MB: '0' })).toBe('UPLOAD_MAX_IMAGE_MB');
    expect(variableOf({ UPLOAD_MAX_IMAGE_MB: '2.5' })).toBe('UPLOAD_MAX_IMAGE_MB');
  });

  it('reads the embedded host key pair from UPLOAD_ACCESS_KEY and UPLOAD_SECRET_KEY, both or neither, never echoing the secret', () => {
    const secret = 'k'.repeat(40);
    expect(read({ UPLOAD_ACCESS_KEY: 'shared-ak', UPLOAD_SECRET_KEY: secret })).toMatchObject({
      provider: 'local',
      uploadKeys: { accessKey: 'shared-ak', secretKey: secret },
    });
    expect(variableOf({ UPLOAD_SECRET_KEY: secret })).toBe('UPLOAD_ACCESS_KEY');
    expect(variableOf({ UPLOAD_ACCESS_KEY: 'shared-ak' })).toBe('UPLOAD_SECRET_KEY');
    expect(variableOf({ UPLOAD_ACCESS_KEY: 'has:colon', UPLOAD_SECRET_KEY: secret })).toBe('UPLOAD_ACCESS_KEY');
    const short = 'tooShortSecret-123';
    expect(() => read({ UPLOAD_ACCESS_KEY: 'shared-ak', UPLOAD_SECRET_KEY: short })).toThrow(
      'Invalid configuration: UPLOAD_SECRET_KEY must be at least 32 characters, got 18',
    );
    // With the provider the tokens are signed with its keys: a second pair is a mistake, said so.
    expect(() => read({ ...PROVIDER, UPLOAD_ACCESS_KEY: 'shared-ak', UPLOAD_SECRET_KEY: secret })).toThrow(
      /UPLOAD_ACCESS_KEY is for the embedded upload host; with the cloud storage provider/,
    );
    expect(() => read({ UPLOAD_ACCESS_KEY: 'bad key', UPLOAD_SECRET_KEY: secret })).toThrow(
      'Invalid configuration: UPLOAD_ACCESS_KEY must be 1–128 letters, digits, ".", "_" or "-"',
    );
  });

  it('uses the configured key pair instead of writing one into the data directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clearplay-keys-'));
    try {
      const configured = { accessKey: 'shared-ak', secretKey: 'k'.repeat(40) };
      expect(resolveUploadKeys(dir, configured)).toEqual(configured);
      await expect(stat(join(dir, 'upload-keys.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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
