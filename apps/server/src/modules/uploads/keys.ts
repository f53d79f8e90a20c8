import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isAbsolute, relative, resolve } from 'node:path';
import type { UploadPurpose } from '@clearplay/contract';
import { LOCAL_UPLOAD_PREFIX } from './uploads.config.ts';

/**
 * Object keys. The server chooses every key (`evidence/<purpose>/<yyyymm>/<32 hex>`), so a
 * key is unguessable and never comes from a file name. The embedded host accepts only
 * "safe" keys: slash-separated segments of letters, digits, `.`, `_`, `-`, each starting
 * with a letter or digit, so `..`, absolute paths, backslashes and empty segments cannot
 * occur, and the file path is checked to stay inside the folder all the same.
 */
export const KEY_MAX_LENGTH = 200;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > KEY_MAX_LENGTH) return false;
  const segments = key.split('/');
  return segments.length <= 16 && segments.every((s) => SEGMENT.test(s));
}

/** The file of a key inside `root`, or null when the key is unsafe or would leave `root`. */
export function pathForKey(root: string, key: string): string | null {
  if (!isSafeKey(key)) return null;
  const path = resolve(root, key);
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return path;
}

const LOCAL_FILES = `${LOCAL_UPLOAD_PREFIX}/files/`;

/**
 * The key of an embedded-host image URL: the path `/upload/files/<key>`, or the same as an absolute
 * http(s) URL on `ownHost` (this server's own host), with the origin to keep (`''` for a path). The
 * key is URI-decoded, as the host decodes a request's path before it serves (and checks the
 * signature of) `<key>`; null for another host, another path, or a key that is not safe.
 */
export function localFileKeyOf(url: string, ownHost: string | undefined): { origin: string; key: string } | null {
  let origin = '';
  let path: string;
  if (url.startsWith('/') && !url.startsWith('//')) {
    path = url.split(/[?#]/)[0] ?? '';
  } else {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || ownHost === undefined || parsed.host !== ownHost) return null;
    origin = parsed.origin;
    path = parsed.pathname;
  }
  if (!path.startsWith(LOCAL_FILES)) return null;
  let key: string;
  try {
    key = decodeURIComponent(path.slice(LOCAL_FILES.length));
  } catch {
    return null;
  }
  return isSafeKey(key) ? { origin, key } : null;
}

export const KEY_PREFIX: Record<UploadPurpose, string> = {
  cert: 'evidence/cert',
  proof: 'evidence/proof',
  env: 'evidence/env',
  avatar: 'avatar',
};

/**
 * The sealed half of an evidence key: 16 hex digits of an HMAC, under the server's upload secret,
 * of the key's other parts and its owner. The owner is not written in the key (it travels in
 * links), yet only the user it was issued to can ask for it again (to resume an upload).
 */
function evidenceSeal(prefix: string, month: string, owner: number, nonce: string, secret: string): string {
  return createHmac('sha256', secret).update(`evidence-key\n${prefix}/${month}/${nonce}\n${owner}`).digest('hex').slice(0, 16);
}

/**
 * A new key: `evidence/<purpose>/<yyyymm>/<32 hex>`, or for an avatar `avatar/<user id>/<32 hex>`
 * (decision 0062): the owner is in the key, so only its owner can save it as their avatar. An
 * evidence key's 32 hex digits are 16 random ones and their seal for `owner` under `secret`
 * (decision 0113): 128 bits an outsider cannot guess, and a key no other user may claim.
 */
export function newUploadKey(purpose: UploadPurpose, now: Date, owner: number, secret: string): string {
  if (purpose === 'avatar') return `${KEY_PREFIX.avatar}/${owner}/${randomBytes(16).toString('hex')}`;
  const month = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const nonce = randomBytes(8).toString('hex');
  return `${KEY_PREFIX[purpose]}/${month}/${nonce}${evidenceSeal(KEY_PREFIX[purpose], month, owner, nonce, secret)}`;
}

/** Whether `key` is an avatar key of `owner`'s (`avatar/<owner>/<32 hex>`). */
export function isAvatarKeyOf(key: string, owner: number): boolean {
  const prefix = `${KEY_PREFIX.avatar}/${owner}/`;
  return Number.isInteger(owner) && owner > 0 && key.startsWith(prefix) && /^[0-9a-f]{32}$/.test(key.slice(prefix.length));
}

/** Whether `key` is a key this server issued for `purpose` to `owner` (an evidence key's seal checked under `secret`). */
export function isIssuedKey(key: string, purpose: UploadPurpose, owner: number, secret: string): boolean {
  if (purpose === 'avatar') return isAvatarKeyOf(key, owner);
  const prefix = `${KEY_PREFIX[purpose]}/`;
  const match = /^(\d{6})\/([0-9a-f]{16})([0-9a-f]{16})$/.exec(key.startsWith(prefix) ? key.slice(prefix.length) : '');
  if (match === null || !Number.isInteger(owner) || owner <= 0) return false;
  const [, month, nonce, seal] = match as unknown as [string, string, string, string];
  return timingSafeEqual(Buffer.from(seal), Buffer.from(evidenceSeal(KEY_PREFIX[purpose], month, owner, nonce, secret)));
}
