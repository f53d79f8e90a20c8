import { Type, type Static } from 'typebox';

/**
 * Evidence images (spec §2 image uploader, §3 upload token / upload result, §7
 * `GET /admin/upload/token`, §9 storage limits).
 *
 * The browser uploads with the provider's own SDK (qiniu-js). The server only hands out a
 * signed upload token for a key it chose; the bytes go to the provider, or, in the embedded
 * default, to this server's own implementation of the provider's upload API.
 */

/** What an image is for. Each purpose has its own key prefix (see the server's upload keys). */
export const UPLOAD_PURPOSES = ['cert', 'proof', 'env'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/**
 * The image types accepted everywhere: the widget's file filter and the embedded host's
 * content check (magic bytes). SVG is deliberately absent: it is a document that can carry
 * script, not a picture.
 */
export const IMAGE_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/avif',
  'image/heic',
  'image/heif',
  'image/tiff',
] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

/** Default per-image size limit (UPLOAD_MAX_IMAGE_MB). */
export const DEFAULT_MAX_IMAGE_MB = 20;

/** Spec §9: the SDK's settings. Files over 4 MB go in chunks, otherwise one form upload. */
export const STORAGE_UPLOAD = {
  /** Chunk size in MB (the SDK doubles it while a file would exceed 10000 chunks). */
  chunkSizeMb: 4,
  /** Spec §5: chunk size must be a positive integer of at most 1024 (MB). */
  maxChunkSizeMb: 1024,
  concurrentRequests: 3,
  retryCount: 3,
  /** Files strictly larger than this many MB are uploaded in chunks. */
  directMaxMb: 4,
} as const;

export const UploadTokenQuery = Type.Object(
  {
    purpose: Type.Union(UPLOAD_PURPOSES.map((p) => Type.Literal(p))),
    /**
     * A key this server handed out earlier, to get a fresh token for the same key: an
     * interrupted chunked upload can then resume (the SDK's cache is keyed by file and key).
     */
    key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type UploadTokenQuery = Static<typeof UploadTokenQuery>;

/**
 * Where the browser sends the bytes.
 * - `local`: the embedded upload host of this server, at `path` on the app's own origin.
 * - `qiniu`: the provider; `region` picks its upload hosts, or null for the SDK's host
 *   discovery query (spec §7).
 */
export const UploadTarget = Type.Union([
  Type.Object({ provider: Type.Literal('local'), path: Type.String() }),
  Type.Object({
    provider: Type.Literal('qiniu'),
    region: Type.Union([Type.String(), Type.Null()]),
    upprotocol: Type.Union([Type.Literal('https'), Type.Literal('http')]),
  }),
]);
export type UploadTarget = Static<typeof UploadTarget>;

/** Spec §3 "Upload token response": uploadToken and key (plus where and how much to send). */
export const UploadTokenData = Type.Object({
  uploadToken: Type.String(),
  key: Type.String(),
  /** Unix seconds after which the token is refused. */
  deadline: Type.Integer(),
  target: UploadTarget,
  /** Largest accepted image, in bytes. */
  maxBytes: Type.Integer({ minimum: 1 }),
});
export type UploadTokenData = Static<typeof UploadTokenData>;

/**
 * Spec §3 "Upload result": what the upload host answers once the file is stored (the put
 * policy's returnBody, so the provider and the embedded host answer the same).
 */
export const UploadResult = Type.Object({
  url: Type.String(),
  key: Type.String(),
  hash: Type.String(),
  fsize: Type.Integer(),
  mimeType: Type.String(),
});
export type UploadResult = Static<typeof UploadResult>;
