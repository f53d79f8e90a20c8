import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUploadsConfig, resolveUploadKeys, UploadConfigError } from './uploads.config.ts';

const read = (env: Record<string, string>) => readUploadsConfig((name) => env[name]);
const PROVIDER = { QINIU_ACCESS_KEY: 'ak', QINIU_SECRET_KEY: 'sk', QINIU_BUCKET: 'b', QINIU_DOMAIN: 'https://img.example.com/' };

describe('upload configuration', () => {
  it('defaults to the embedded host, 20 MB per image, 15-minute tokens', () => {
    expect(read({})).toEqual({ provider: 'local', maxImageBytes: 20 * 1024 * 1024, tokenTtlSeconds: 900 });
    expect(read({ UPLOAD_MAX_IMAGE_MB: '5', UPLOAD_TOKEN_TTL_SECONDS: '120' })).toEqual({
      provider: 'local',
      maxImageBytes: 5 * 1024 * 1024,
      tokenTtlSeconds: 120,
    });
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
