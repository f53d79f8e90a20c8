/**
 * What an image is for. Each purpose has its own key prefix (see the server's upload keys):
 * cert, proof, env are an order's evidence; avatar is the user's own picture (decision 0062).
 */
export const UPLOAD_PURPOSES = ['cert', 'proof', 'env', 'avatar'] as const;
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

/**
 * An avatar (decision 0062): only the types every browser shows in an <img>, and a small file
 * (a picture shown at 24–64 px); the upload token's put policy carries both, so the embedded
 * host and the provider refuse anything else.
 */
export const AVATAR_MIME_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

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
