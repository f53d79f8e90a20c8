/**
 * Upload configuration. `readUploadsConfig` is pure (it is handed the variables), so
 * config.ts stays the only reader of process.env; `resolveUploadKeys` runs at start and
 * creates the embedded host's key pair once, under the data directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_IMAGE_MB } from '@clearplay/contract';
import { configuredOrKeptSecret } from '../../lib/key-file.ts';
import type { UploadKeys } from './upload-token.ts';

/** The provider's regions whose upload hosts qiniu-js knows (its `region` setting). */
export const QINIU_REGIONS = ['z0', 'z1', 'z2', 'na0', 'as0', 'cn-east-2'] as const;

/** Where the embedded upload host is mounted. */
export const LOCAL_UPLOAD_PREFIX = '/upload';
/** The bucket name inside the embedded host's tokens (there is only one). */
export const LOCAL_BUCKET = 'clearplay';
/** Tokens live 15 minutes: long enough for a 20 MB image on a slow line, short if leaked. */
export const DEFAULT_TOKEN_TTL_SECONDS = 15 * 60;

/** Evidence links handed to the API live 15 minutes (decision 0082): minutes, not days. */
export const DEFAULT_EVIDENCE_URL_TTL_MINUTES = 15;
/** Evidence links written into an export live a day: long enough to open the file and look. */
export const DEFAULT_EVIDENCE_EXPORT_URL_HOURS = 24;
/** A configured signing secret is at least this long. */
export const EVIDENCE_URL_SECRET_MIN = 32;
/** UPLOAD_SECRET_KEY is at least this long (the generated one is 43 characters). */
export const UPLOAD_SECRET_KEY_MIN = 32;
/** UPLOAD_ACCESS_KEY: it stands before the first `:` of every token, so no `:` (nor spaces). */
const ACCESS_KEY_SHAPE = /^[A-Za-z0-9._-]{1,128}$/;

/** Signed evidence links (decision 0082), on either storage. */
export interface EvidenceUrlConfig {
  /** Lifetime of a link the API hands out, seconds. */
  evidenceUrlTtlSeconds: number;
  /** Lifetime of a link written into an export, seconds. */
  evidenceExportUrlTtlSeconds: number;
  /** EVIDENCE_URL_SECRET; null: the embedded host's generated one (`<dataDir>/evidence-url-secret`). */
  evidenceUrlSecret: string | null;
}

export type UploadsConfig = EvidenceUrlConfig &
  (
    | {
        provider: 'local';
        maxImageBytes: number;
        tokenTtlSeconds: number;
        /**
         * UPLOAD_ACCESS_KEY and UPLOAD_SECRET_KEY; null: the pair generated and kept in
         * `<dataDir>/upload-keys.json` (one machine). Every instance must be given the same pair.
         */
        uploadKeys: UploadKeys | null;
      }
    | {
        provider: 'qiniu';
        accessKey: string;
        secretKey: string;
        bucket: string;
        /** Public base URL of the bucket's domain, e.g. https://img.example.com (no trailing slash). */
        publicBaseUrl: string;
        /** Null: the SDK asks the provider which hosts to use (the provider's host discovery). */
        region: (typeof QINIU_REGIONS)[number] | null;
        maxImageBytes: number;
        tokenTtlSeconds: number;
      }
  );

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
const UPLOAD_KEY_VARIABLES = ['UPLOAD_ACCESS_KEY', 'UPLOAD_SECRET_KEY'] as const;

/**
 * QINIU_ACCESS_KEY, QINIU_SECRET_KEY, QINIU_BUCKET, QINIU_DOMAIN: all four for the
 * provider, none for the embedded host. QINIU_REGION optional. UPLOAD_MAX_IMAGE_MB
 * (default 20), UPLOAD_TOKEN_TTL_SECONDS (default 900). EVIDENCE_URL_TTL_MINUTES (default 15),
 * EVIDENCE_URL_EXPORT_HOURS (default 24), EVIDENCE_URL_SECRET (optional, embedded host only).
 * UPLOAD_ACCESS_KEY and UPLOAD_SECRET_KEY: both or neither, embedded host only (the provider's
 * tokens are signed with QINIU_SECRET_KEY). No message repeats a secret's value.
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
  const secret = value('EVIDENCE_URL_SECRET');
  if (secret !== undefined && secret.length < EVIDENCE_URL_SECRET_MIN) {
    throw new UploadConfigError('EVIDENCE_URL_SECRET', `must be at least ${EVIDENCE_URL_SECRET_MIN} characters, got ${secret.length}`);
  }
  const evidence: EvidenceUrlConfig = {
    evidenceUrlTtlSeconds: whole('EVIDENCE_URL_TTL_MINUTES', DEFAULT_EVIDENCE_URL_TTL_MINUTES, 1, 24 * 60) * 60,
    evidenceExportUrlTtlSeconds: whole('EVIDENCE_URL_EXPORT_HOURS', DEFAULT_EVIDENCE_EXPORT_URL_HOURS, 1, 30 * 24) * 3600,
    evidenceUrlSecret: secret ?? null,
  };

  const given = PROVIDER_VARIABLES.filter((name) => value(name) !== undefined);
  const keysGiven = UPLOAD_KEY_VARIABLES.filter((name) => value(name) !== undefined);
  if (given.length === 0) {
    if (value('QINIU_REGION') !== undefined)
      throw new UploadConfigError('QINIU_REGION', 'needs QINIU_ACCESS_KEY, QINIU_SECRET_KEY, QINIU_BUCKET and QINIU_DOMAIN');
    return { provider: 'local', maxImageBytes, tokenTtlSeconds, uploadKeys: readUploadKeys(value), ...evidence };
  }
  if (keysGiven.length > 0) {
    throw new UploadConfigError(
      keysGiven[0]!,
      'is for the embedded upload host; with the cloud storage provider (QINIU_*) tokens are signed with QINIU_ACCESS_KEY and QINIU_SECRET_KEY',
    );
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
    ...evidence,
  };
}

/** UPLOAD_ACCESS_KEY and UPLOAD_SECRET_KEY: both or neither; the secret's value is never echoed. */
function readUploadKeys(value: (name: string) => string | undefined): UploadKeys | null {
  const accessKey = value('UPLOAD_ACCESS_KEY');
  const secretKey = value('UPLOAD_SECRET_KEY');
  if (accessKey === undefined && secretKey === undefined) return null;
  if (accessKey === undefined) throw new UploadConfigError('UPLOAD_ACCESS_KEY', 'is required when UPLOAD_SECRET_KEY is set');
  if (secretKey === undefined) throw new UploadConfigError('UPLOAD_SECRET_KEY', 'is required when UPLOAD_ACCESS_KEY is set');
  if (!ACCESS_KEY_SHAPE.test(accessKey)) {
    throw new UploadConfigError('UPLOAD_ACCESS_KEY', 'must be 1–128 letters, digits, ".", "_" or "-"');
  }
  if (secretKey.length < UPLOAD_SECRET_KEY_MIN) {
    throw new UploadConfigError('UPLOAD_SECRET_KEY', `must be at least ${UPLOAD_SECRET_KEY_MIN} characters, got ${secretKey.length}`);
  }
  return { accessKey, secretKey };
}

/**
 * The embedded host's key pair: UPLOAD_ACCESS_KEY / UPLOAD_SECRET_KEY when set (every instance
 * is given the same pair, so each accepts the tokens the others issue), else one generated on
 * first start and kept in `<dataDir>/upload-keys.json` (mode 0600), so tokens issued before a
 * restart stay valid and an interrupted chunked upload can resume after one.
 */
export function resolveUploadKeys(dataDir: string, configured: UploadKeys | null = null): UploadKeys {
  if (configured !== null) return configured;
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

/**
 * The embedded host's secret for signing evidence links: EVIDENCE_URL_SECRET when set (every
 * instance that serves the same files must be given the same one), else one generated on first
 * start and kept in `<dataDir>/evidence-url-secret` (mode 0600), so links survive a restart.
 */
export const resolveEvidenceUrlSecret = (dataDir: string, configured: string | null): string =>
  configuredOrKeptSecret(dataDir, 'evidence-url-secret', configured, {
    min: EVIDENCE_URL_SECRET_MIN,
    unreadable: 'holds no secret; delete it to create a new one',
  });
