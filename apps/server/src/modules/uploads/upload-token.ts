/**
 * The storage provider's upload token (Qiniu Kodo "上传凭证"):
 *
 *   <AccessKey>:<urlsafe_base64(hmac_sha1(SecretKey, encodedPolicy))>:<encodedPolicy>
 *   encodedPolicy = urlsafe_base64(JSON put policy)
 *
 * "urlsafe base64" is standard base64 with `+` -> `-` and `/` -> `_`, padding kept, which
 * is what the provider's SDKs produce (Node's own 'base64url' drops the padding).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The put policy fields this project sets or the embedded upload host understands. */
export interface PutPolicy {
  /** `<bucket>` or `<bucket>:<key>`; with a key, only that key may be uploaded. */
  scope: string;
  /** Unix seconds after which the token is refused. */
  deadline: number;
  /** 1: never overwrite an existing key. */
  insertOnly?: number;
  /** Largest accepted file, bytes. */
  fsizeLimit?: number;
  /** Accepted mime types, `;`-separated, wildcards allowed (`image/*`). */
  mimeLimit?: string;
  /** 1: the provider detects the mime type from the content, not the client's claim. */
  detectMime?: number;
  /** The JSON template the upload host answers with; `$(name)` are magic variables. */
  returnBody?: string;
  [extra: string]: unknown;
}

export interface UploadKeys {
  accessKey: string;
  secretKey: string;
}

/** Why a token was refused; `status` and `message` follow the provider's error answers. */
export class UploadTokenError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'UploadTokenError';
  }
}

export function urlSafeBase64Encode(data: string | Buffer): string {
  return Buffer.from(data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** Decodes urlsafe (or standard) base64, with or without padding. Null when malformed. */
export function urlSafeBase64Decode(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_\-+/]*={0,2}$/.test(text)) return null;
  const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return null;
  return Buffer.from(standard, 'base64');
}

const sign = (encodedPolicy: string, secretKey: string): string =>
  urlSafeBase64Encode(createHmac('sha1', secretKey).update(encodedPolicy).digest());

/**
 * Signs a put policy. The JSON keeps the policy's own key order, so the same policy gives
 * the same token as the provider's Node SDK (which writes `deadline` last).
 */
export function signUploadToken(policy: PutPolicy, keys: UploadKeys): string {
  const { deadline, ...rest } = policy;
  const encodedPolicy = urlSafeBase64Encode(JSON.stringify({ ...rest, deadline }));
  return `${keys.accessKey}:${sign(encodedPolicy, keys.secretKey)}:${encodedPolicy}`;
}

export interface Scope {
  bucket: string;
  /** Undefined for a bucket-wide scope. */
  key: string | undefined;
}

export function parseScope(scope: string): Scope {
  const colon = scope.indexOf(':');
  if (colon === -1) return { bucket: scope, key: undefined };
  return { bucket: scope.slice(0, colon), key: scope.slice(colon + 1) };
}

const BAD_TOKEN = 'bad token';

/**
 * Checks a token's access key, signature and deadline, and returns its put policy.
 * Throws UploadTokenError 401 "bad token" for anything not signed by `keys`, and
 * 401 "token out of date" once the deadline has passed.
 */
export function verifyUploadToken(token: string | undefined, keys: UploadKeys, nowSeconds: number): PutPolicy {
  if (token === undefined || token === '') throw new UploadTokenError(401, 'token not specified');
  const parts = token.split(':');
  if (parts.length !== 3) throw new UploadTokenError(401, BAD_TOKEN);
  const [accessKey = '', signature = '', encodedPolicy = ''] = parts;
  if (accessKey !== keys.accessKey) throw new UploadTokenError(401, BAD_TOKEN);

  const expected = Buffer.from(sign(encodedPolicy, keys.secretKey));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new UploadTokenError(401, BAD_TOKEN);

  const json = urlSafeBase64Decode(encodedPolicy);
  let policy: unknown;
  try {
    policy = json === null ? null : JSON.parse(json.toString('utf8'));
  } catch {
    policy = null;
  }
  if (
    typeof policy !== 'object' ||
    policy === null ||
    typeof (policy as PutPolicy).scope !== 'string' ||
    (policy as PutPolicy).scope === '' ||
    typeof (policy as PutPolicy).deadline !== 'number'
  ) {
    throw new UploadTokenError(401, BAD_TOKEN);
  }
  const checked = policy as PutPolicy;
  if (checked.deadline < nowSeconds) throw new UploadTokenError(401, 'token out of date');
  return checked;
}

/** The policy part of a token, unverified (what the browser SDK reads too). */
export function readPutPolicy(token: string): PutPolicy | null {
  const encoded = token.split(':').at(-1) ?? '';
  const json = urlSafeBase64Decode(encoded);
  if (json === null) return null;
  try {
    const policy: unknown = JSON.parse(json.toString('utf8'));
    return typeof policy === 'object' && policy !== null ? (policy as PutPolicy) : null;
  } catch {
    return null;
  }
}
