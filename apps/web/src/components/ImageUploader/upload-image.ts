import { upload } from 'qiniu-js';
import type { UploadResult, UploadTarget } from '@clearplay/contract';
import { AVATAR_MIME_TYPES, IMAGE_MIME_TYPES } from '@clearplay/contract/constants';
import type { Config } from './sdk-config.ts';

/** What `getToken` resolves to: the server's `{uploadToken, key}`, optionally where to send and how much. */
export interface UploadTicket {
  uploadToken: string;
  key: string;
  target?: UploadTarget;
  maxBytes?: number;
  /** Unix seconds after which the token is refused. */
  deadline?: number;
}

/** Asks the server for a token; `key` asks for a fresh token for a key it issued before (resume). */
export type GetUploadToken = (request: { key?: string }) => Promise<UploadTicket>;

/** File-name extensions of the accepted images, for the file picker's `accept`. */
export const IMAGE_ACCEPT = [
  ...IMAGE_MIME_TYPES,
  '.jpg',
  '.jpeg',
  '.png',
  '.gif',
  '.webp',
  '.bmp',
  '.avif',
  '.heic',
  '.heif',
  '.tif',
  '.tiff',
].join(',');

/**
 * The widget's first filter: the type the browser reports (from the name). The server checks
 * the real content again; this only spares a pointless upload.
 */
export function looksLikeImage(file: Pick<File, 'type' | 'name'>): boolean {
  if ((IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return true;
  // Some browsers report no type for HEIC/AVIF: fall back to the extension.
  return file.type === '' && /\.(jpe?g|png|gif|webp|bmp|avif|heic|heif|tiff?)$/i.test(file.name);
}

/** The picker's `accept` for an avatar (decision 0062): the four types every browser shows. */
export const AVATAR_ACCEPT = [...AVATAR_MIME_TYPES, '.jpg', '.jpeg', '.png', '.gif', '.webp'].join(',');

/** The first filter for an avatar: JPEG, PNG, GIF or WebP by the reported type (the upload host checks the content). */
export function looksLikeAvatar(file: Pick<File, 'type' | 'name'>): boolean {
  if ((AVATAR_MIME_TYPES as readonly string[]).includes(file.type)) return true;
  return file.type === '' && /\.(jpe?g|png|gif|webp)$/i.test(file.name);
}

/** A token still usable for `marginSeconds` more, judged from the policy the token carries. */
export function tokenStillValid(ticket: UploadTicket, nowMs: number, marginSeconds = 60): boolean {
  if (ticket.deadline === undefined) return false;
  return ticket.deadline - marginSeconds > nowMs / 1000;
}

/**
 * The details after "上传失败：": the provider's answer (`{error}`) with its HTTP code for a
 * request error, the SDK's error name (InvalidFile, InvalidToken, …) otherwise.
 */
export function describeUploadError(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const e = error as { name?: unknown; message?: unknown; code?: unknown; data?: unknown };
    if (typeof e.code === 'number') {
      const detail =
        typeof e.data === 'object' && e.data !== null && typeof (e.data as { error?: unknown }).error === 'string'
          ? (e.data as { error: string }).error
          : e.code === 0
            ? 'network error'
            : String(e.message ?? '');
      return `${e.code} ${detail}`.trim();
    }
    if (typeof e.name === 'string' && typeof e.message === 'string') return `${e.name}: ${e.message}`;
    if (typeof e.message === 'string') return e.message;
  }
  return String(error);
}

/**
 * The upload host's refusal of a file whose content is not an allowed type: HTTP 403 with
 * `{"error": "limited mimeType: …"}`, the provider's answer to a put policy's `mimeLimit`
 * (the embedded host answers the same). The host reads the bytes, so this is what a non-image
 * renamed to `.png` gets: the widget tells it as it tells any non-image.
 */
export function isTypeRefusal(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, data } = error as { code?: unknown; data?: unknown };
  const reason = typeof data === 'object' && data !== null ? (data as { error?: unknown }).error : undefined;
  return code === 403 && typeof reason === 'string' && /^limited mimeType/i.test(reason);
}

export interface UploadHandlers {
  /** 0 → 1. */
  onProgress: (progress: number) => void;
  onDone: (result: UploadResult) => void;
  onError: (error: unknown) => void;
}

/**
 * Sends one file with the provider's SDK. Chunking, the resume cache (localStorage, keyed by
 * file name + key + size), host freezing and retries are the SDK's own.
 * Returns a function that stops the upload (the SDK keeps its cache, so a retry resumes).
 */
export function uploadImage(file: File, ticket: UploadTicket, config: Config, handlers: UploadHandlers): () => void {
  const subscription = upload(file, ticket.key, ticket.uploadToken, { fname: file.name }, config).subscribe({
    next: (progress) => handlers.onProgress(Math.min(1, Math.max(0, progress.total.percent / 100))),
    error: (error) => handlers.onError(error),
    complete: (result: unknown) => {
      const body = result as Partial<UploadResult> | null;
      if (body === null || typeof body.url !== 'string') {
        handlers.onError(new Error('the upload host answered without a url'));
        return;
      }
      handlers.onProgress(1);
      handlers.onDone(body as UploadResult);
    },
  });
  return () => subscription.unsubscribe();
}
