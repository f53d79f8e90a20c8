/**
 * Upload configuration. `readUploadsConfig` is pure (it is handed the variables), so
 * config.ts stays the only reader of process.env; `resolveUploadKeys` runs at start and
 * creates the embedded host's key pair once, under the data directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_IMAGE_MB } from '@clearplay/contract';
import type { UploadKeys } from './upload-token.ts';

/** The provider's regions whose upload hosts qiniu-js knows (its `region` setting). */
export const QINIU_REGIONS = ['z0', 'z1', 'z2', 'na0', 'as0', 'cn-east-2'] as const;

/** Where the embedded upload host is mounted. */
export const LOCAL_UPLOAD_PREFIX = '/upload';
/** The bucket name inside the embedded host's tokens (there is only one). */
export const LOCAL_BUCKET = 'clearplay';
/** Tokens live 15 minutes: long enough for a 20 MB image on a slow line, short if leaked. */
export const DEFAULT_TOKEN_TTL_SECONDS = 15 * 60;

export type UploadsConfig =
  | {
      provider: 'local';
      maxImageBytes: number;
      tokenTtlSeconds: number;
    }
  | {
      provider: 'qiniu';
      accessKey: string;
      secretKey: string;
      bucket: string;
      /** Public base URL of the bucket's domain, e.g. https://img.example.com (no trailing slash). */
      publicBaseUrl: string;
      /** Null: the SDK asks the provider which hosts to use (spec §7 host discovery). */
      region: (typeof QINIU_REGIONS)[number] | null;
      maxImageBytes: number;
      tokenTtlSeconds: number;
    };

export class UploadConfigError extends Error {
  constructor(
    readonly variable: string,
    /** What is wrong, without the variable's name (for config.ts's ConfigError). */
    readonly detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'UploadConfigError';
  }
}

const PROVIDER_VARIABLES = ['QINIU_ACCESS_KEY', 'QINIU_SECRET_KEY', 'QINIU_BUCKET', 'QINIU_DOMAIN'] as const;

/**
 * QINIU_ACCESS_KEY, QINIU_SECRET_KEY, QINIU_BUCKET, QINIU_DOMAIN: all four for the
 * provider, none for the embedded host. QINIU_REGION optional. UPLOAD_MAX_IMAGE_MB
 * (default 20), UPLOAD_TOKEN_TTL_SECONDS (default 900).
 */
export function readUploadsConfig(get: (name: string) => string | undefined): UploadsConfig {
  const value = (name: string) => {
    const raw = get(name)?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const whole = (name: string, fallback: number, min: number, max: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new UploadConfigError(name, `must be a whole number from ${min} to ${max}, got "${raw}"`);
    }
    return Number(raw);
  };
  const maxImageBytes = whole('UPLOAD_MAX_IMAGE_MB', DEFAULT_MAX_IMAGE_MB, 1, 1024) * 1024 * 1024;
  const tokenTtlSeconds = whole('UPLOAD_TOKEN_TTL_SECONDS', DEFAULT_TOKEN_TTL_SECONDS, 60, 24 * 3600);

  const given = PROVIDER_VARIABLES.filter((name) => value(name) !== undefined);
  if (given.length === 0) {
    if (value('QINIU_REGION') !== undefined)
      throw new UploadConfigError('QINIU_REGION', 'needs QINIU_ACCESS_KEY, QINIU_SECRET_KEY, QINIU_BUCKET and QINIU_DOMAIN');
    return { provider: 'local', maxImageBytes, tokenTtlSeconds };
  }
  const missing = PROVIDER_VARIABLES.find((name) => value(name) === undefined);
  if (missing !== undefined) {
    throw new UploadConfigError(
      missing,
      `is required when ${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set (the cloud storage provider needs all four)`,
    );
  }

  const domain = value('QINIU_DOMAIN')!;
  let publicBaseUrl: string;
  try {
    const url = new URL(/^https?:\/\//i.test(domain) ? domain : `https://${domain}`);
    publicBaseUrl = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    throw new UploadConfigError('QINIU_DOMAIN', `is not a domain or URL, got "${domain}"`);
  }
  const region = value('QINIU_REGION');
  if (region !== undefined && !(QINIU_REGIONS as readonly string[]).includes(region)) {
    throw new UploadConfigError('QINIU_REGION', `must be one of ${QINIU_REGIONS.join(', ')}, got "${region}"`);
  }
  return {
    provider: 'qiniu',
    accessKey: value('QINIU_ACCESS_KEY')!,
    secretKey: value('QINIU_SECRET_KEY')!,
    bucket: value('QINIU_BUCKET')!,
    publicBaseUrl,
    region: (region as (typeof QINIU_REGIONS)[number] | undefined) ?? null,
    maxImageBytes,
    tokenTtlSeconds,
  };
}

/**
 * The embedded host's key pair: generated on first start and kept in
 * `<dataDir>/upload-keys.json` (mode 0600), so tokens issued before a restart stay valid
 * and an interrupted chunked upload can resume after one.
 */
export function resolveUploadKeys(dataDir: string): UploadKeys {
  const file = join(dataDir, 'upload-keys.json');
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<UploadKeys>;
    if (typeof saved.accessKey === 'string' && typeof saved.secretKey === 'string' && saved.accessKey && saved.secretKey) {
      return { accessKey: saved.accessKey, secretKey: saved.secretKey };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`${file} is unreadable or not JSON; delete it to create a new key pair`, { cause: error });
  }
  const keys: UploadKeys = {
    accessKey: `local-${randomBytes(12).toString('hex')}`,
    secretKey: randomBytes(32).toString('base64url'),
  };
  mkdirSync(dataDir, { recursive: true });
  // 'wx': if another process created it in the meantime, fail rather than overwrite it.
  writeFileSync(file, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  return keys;
}
