import {
  AVATAR_MAX_BYTES,
  AVATAR_MIME_TYPES,
  IMAGE_MIME_TYPES,
  type UploadPurpose,
  type UploadTarget,
  type UploadTokenData,
} from '@clearplay/contract';
import type { BlobStore } from './stores/blob-store.ts';
import type { EvidenceUrls } from './evidence/evidence-urls.ts';

export { BlobReadError, type BlobStore } from './stores/blob-store.ts';
export { createEvidenceUrls, signImageList, stripSignature, type EvidenceUrls } from './evidence/evidence-urls.ts';
export { localBlobSweepStore, type BlobSweepStore, type StoredBlob } from './retention/blob-sweep.ts';
export { removeUnreferencedUploads, type UnreferencedSweep } from './retention/unreferenced.ts';
import { isIssuedKey, newUploadKey } from './keys.ts';
import { LocalBlobStore } from './stores/local-blob-store.ts';
import { QiniuBlobStore } from './stores/qiniu-blob-store.ts';
import { signUploadToken, type PutPolicy, type UploadKeys } from './upload-token.ts';
import { LOCAL_BUCKET, LOCAL_UPLOAD_PREFIX, resolveUploadKeys, type UploadsConfig } from './uploads.config.ts';

/** Everything needed to sign tokens, resolved once at start. */
export interface UploadSigner {
  keys: UploadKeys;
  bucket: string;
  /** Files are served at `<publicBaseUrl>/<key>`. */
  publicBaseUrl: string;
  target: UploadTarget;
  maxImageBytes: number;
  tokenTtlSeconds: number;
  /** Signs the URL an evidence upload answers with (decision 0082); without it the URL is bare. */
  evidenceUrls?: EvidenceUrls;
}

export function createUploadSigner(config: UploadsConfig, dataDir: string, evidenceUrls?: EvidenceUrls): UploadSigner {
  if (config.provider === 'local') {
    return {
      evidenceUrls,
      keys: resolveUploadKeys(dataDir, config.uploadKeys),
      bucket: LOCAL_BUCKET,
      publicBaseUrl: `${LOCAL_UPLOAD_PREFIX}/files`,
      target: { provider: 'local', path: LOCAL_UPLOAD_PREFIX },
      maxImageBytes: config.maxImageBytes,
      tokenTtlSeconds: config.tokenTtlSeconds,
    };
  }
  return {
    evidenceUrls,
    keys: { accessKey: config.accessKey, secretKey: config.secretKey },
    bucket: config.bucket,
    publicBaseUrl: config.publicBaseUrl,
    target: { provider: 'qiniu', region: config.region, upprotocol: 'https' },
    maxImageBytes: config.maxImageBytes,
    tokenTtlSeconds: config.tokenTtlSeconds,
  };
}

const jsonText = (text: string) => JSON.stringify(text).slice(1, -1);

/** The largest file and the types a purpose accepts: an avatar is smaller and plainer (decision 0062). */
export function limitsOf(signer: UploadSigner, purpose: UploadPurpose): { maxBytes: number; mimeTypes: readonly string[] } {
  return purpose === 'avatar'
    ? { maxBytes: Math.min(AVATAR_MAX_BYTES, signer.maxImageBytes), mimeTypes: AVATAR_MIME_TYPES }
    : { maxBytes: signer.maxImageBytes, mimeTypes: IMAGE_MIME_TYPES };
}

/**
 * The put policy of one image: only this key, never overwriting, only the purpose's image types
 * (the provider detects the type from the content), at most the purpose's size, and an answer
 * that carries the file's URL (the contract's UploadResult.url): an avatar's bare, evidence's signed
 * for the token's life and one link lifetime beyond (the uploader shows it while the form is open).
 */
export function imagePutPolicy(signer: UploadSigner, key: string, deadline: number, purpose: UploadPurpose = 'cert'): PutPolicy {
  const limits = limitsOf(signer, purpose);
  const bare = `${signer.publicBaseUrl}/${key}`;
  const url =
    purpose === 'avatar' || signer.evidenceUrls === undefined
      ? bare
      : signer.evidenceUrls.sign(bare, deadline + signer.evidenceUrls.ttlSeconds);
  return {
    scope: `${signer.bucket}:${key}`,
    insertOnly: 1,
    fsizeLimit: limits.maxBytes,
    mimeLimit: limits.mimeTypes.join(';'),
    detectMime: 1,
    returnBody: `{"url":"${jsonText(url)}","key":"$(key)","hash":"$(etag)","fsize":$(fsize),"mimeType":"$(mimeType)"}`,
    deadline,
  };
}

export class InvalidUploadKeyError extends Error {
  constructor() {
    super('not a key this server issues for this purpose');
    this.name = 'InvalidUploadKeyError';
  }
}

/**
 * A token for a new key under the purpose's prefix, or for `key` again (a fresh token to
 * resume an interrupted upload of the same key): only a key issued to this very `owner`.
 */
export function issueUploadToken(
  signer: UploadSigner,
  request: { purpose: UploadPurpose; key?: string | undefined },
  owner: number,
  now: Date = new Date(),
): UploadTokenData {
  if (request.key !== undefined && !isIssuedKey(request.key, request.purpose, owner, signer.keys.secretKey))
    throw new InvalidUploadKeyError();
  const key = request.key ?? newUploadKey(request.purpose, now, owner, signer.keys.secretKey);
  const deadline = Math.floor(now.getTime() / 1000) + signer.tokenTtlSeconds;
  return {
    uploadToken: signUploadToken(imagePutPolicy(signer, key, deadline, request.purpose), signer.keys),
    key,
    deadline,
    target: signer.target,
    maxBytes: limitsOf(signer, request.purpose).maxBytes,
  };
}

/**
 * Where the evidence images are, for the modules that read, list or remove them (downloads,
 * ZIPs, retention): the embedded host's disk, or the provider's bucket when it is configured.
 */
export async function createBlobStore(config: { dataDir: string; uploadsDir: string; uploads: UploadsConfig }): Promise<BlobStore> {
  const { uploads } = config;
  if (uploads.provider === 'local') return new LocalBlobStore(config.dataDir, config.uploadsDir);
  return QiniuBlobStore.create({
    accessKey: uploads.accessKey,
    secretKey: uploads.secretKey,
    bucket: uploads.bucket,
    publicBaseUrl: uploads.publicBaseUrl,
  });
}

/** Where stored files are served: a path on this site (embedded host) or the bucket's public URL (announcement images). */
export const publicFilesBase = (config: UploadsConfig): string =>
  config.provider === 'local' ? `${LOCAL_UPLOAD_PREFIX}/files` : config.publicBaseUrl;
