/**
 * Signed, short-lived evidence links (decision 0082). An order keeps its images as bare URLs
 * (`/upload/files/<key>` of the embedded host, `<bucket domain>/<key>` of the provider); a
 * caller allowed to see the order gets them signed at read time: `?e=<deadline>&token=<sig>`,
 * the shape of the provider's private-bucket download URLs. The embedded host signs an HMAC
 * over the path and the deadline with its own secret and checks it when serving; with the
 * provider the bucket is private and the SDK signs the provider's download URL.
 * Avatars are public (`avatar/…` keys are never signed).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type qiniuModule from 'qiniu';
import { KEY_PREFIX, localFileKeyOf } from '../keys.ts';
import { LOCAL_UPLOAD_PREFIX, resolveEvidenceUrlSecret, type UploadsConfig } from '../uploads.config.ts';

const LOCAL_FILES = `${LOCAL_UPLOAD_PREFIX}/files/`;

/** The signature a signed link ends with (either storage). */
const SIGNATURE = /\?e=\d{1,12}&token=[A-Za-z0-9_\-:=]{1,200}$/;

/** A URL as it is stored: a link handed out signed comes back (an edited form) without its signature. */
export const stripSignature = (url: string): string => url.replace(SIGNATURE, '');

/** Only evidence is private; an avatar is shown to everyone who sees its user (decision 0082). */
export const isPrivateKey = (key: string): boolean => !key.startsWith(`${KEY_PREFIX.avatar}/`);

export interface EvidenceUrls {
  /** Lifetime of a link the API hands out, seconds. */
  readonly ttlSeconds: number;
  /** Lifetime of a link written into an export, seconds. */
  readonly exportTtlSeconds: number;
  /**
   * A stored image URL signed until `deadline` (Unix seconds) when it is a private image of this
   * storage; anything else as it is. `ownHost`: an absolute URL on this host is the embedded host's too.
   */
  sign(url: string, deadline: number, ownHost?: string): string;
}

/** Each URL of a comma-separated image list, signed (one HMAC each, no I/O). */
export function signImageList(urls: EvidenceUrls, list: string, deadline: number, ownHost?: string): string {
  if (list === '') return list;
  return list
    .split(',')
    .map((url) => urls.sign(url.trim(), deadline, ownHost))
    .join(',');
}

// ── the embedded host ──

/** The HMAC of `<path>?e=<deadline>`, base64url. */
export function localSignature(secret: string, path: string, deadline: number): string {
  return createHmac('sha256', secret).update(`${path}?e=${deadline}`).digest('base64url');
}

export type SignatureCheck = { ok: true; deadline: number } | { ok: false; reason: 'missing' | 'expired' | 'invalid' };

/** Checks `e` and `token` of a request for `path` (e.g. `/upload/files/<key>`) at `nowSeconds`. */
export function checkLocalSignature(
  secret: string,
  path: string,
  query: { e?: unknown; token?: unknown },
  nowSeconds: number,
): SignatureCheck {
  const { e, token } = query;
  if (typeof e !== 'string' || typeof token !== 'string' || e === '' || token === '') return { ok: false, reason: 'missing' };
  if (!/^\d{1,12}$/.test(e)) return { ok: false, reason: 'invalid' };
  const deadline = Number(e);
  const expected = Buffer.from(localSignature(secret, path, deadline));
  const given = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  if (deadline <= nowSeconds) return { ok: false, reason: 'expired' };
  return { ok: true, deadline };
}

export function localEvidenceUrls(secret: string, ttlSeconds: number, exportTtlSeconds: number): EvidenceUrls {
  return {
    ttlSeconds,
    exportTtlSeconds,
    sign(url, deadline, ownHost) {
      const found = localFileKeyOf(url, ownHost);
      if (found === null || !isPrivateKey(found.key)) return url;
      const path = `${LOCAL_FILES}${found.key}`;
      return `${found.origin}${path}?e=${deadline}&token=${localSignature(secret, path, deadline)}`;
    },
  };
}

// ── the provider ──

/** The provider's private download URLs, signed by its SDK (`BucketManager.privateDownloadUrl`). */
export function qiniuEvidenceUrls(
  bucketManager: Pick<qiniuModule.rs.BucketManager, 'privateDownloadUrl'>,
  publicBaseUrl: string,
  ttlSeconds: number,
  exportTtlSeconds: number,
): EvidenceUrls {
  const base = `${publicBaseUrl}/`;
  return {
    ttlSeconds,
    exportTtlSeconds,
    sign(url, deadline) {
      if (!url.startsWith(base)) return url;
      let key: string;
      try {
        key = decodeURIComponent(url.slice(base.length).split(/[?#]/)[0] ?? '');
      } catch {
        return url;
      }
      if (key === '' || !isPrivateKey(key)) return url;
      return bucketManager.privateDownloadUrl(publicBaseUrl, key, deadline);
    },
  };
}

/** The signer of the configured storage (the provider's SDK is loaded only when it is configured). */
export async function createEvidenceUrls(config: { dataDir: string; uploads: UploadsConfig }): Promise<EvidenceUrls> {
  const { uploads } = config;
  if (uploads.provider === 'local') {
    const secret = resolveEvidenceUrlSecret(config.dataDir, uploads.evidenceUrlSecret);
    return localEvidenceUrls(secret, uploads.evidenceUrlTtlSeconds, uploads.evidenceExportUrlTtlSeconds);
  }
  const { default: qiniu } = await import('qiniu');
  const manager = new qiniu.rs.BucketManager(new qiniu.auth.digest.Mac(uploads.accessKey, uploads.secretKey), new qiniu.conf.Config());
  return qiniuEvidenceUrls(manager, uploads.publicBaseUrl, uploads.evidenceUrlTtlSeconds, uploads.evidenceExportUrlTtlSeconds);
}
