/**
 * The upload of an order import: the `file` field of a multipart/form-data request, at most
 * IMPORT_MAX_BYTES, kept in memory (the xlsx reader reorders its parts, see read.ts). The body
 * is read by @fastify/multipart, registered for the import's routes (orders.files.routes.ts).
 */
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../lib/errors.ts';

export const IMPORT_MAX_MB = 20;
export const IMPORT_MAX_BYTES = IMPORT_MAX_MB * 1024 * 1024;

/** The form's limits: one file, a few small fields (the browser sends only the file). */
export const IMPORT_FORM_LIMITS = { files: 1, fields: 20, parts: 21, fileSize: IMPORT_MAX_BYTES, fieldSize: 1024 };

export interface UploadedFile {
  fileName: string;
  data: Buffer;
}

const tooLarge = () => new AppError(413, 'orderImport.tooLarge', { max: IMPORT_MAX_MB });

/** @fastify/multipart's and busboy's errors as the import's: too large, or not readable as a form. */
function asUploadError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new AppError(400, 'orderImport.notMultipart');
  // A malformed body, a client gone mid-upload (FST_MP_PREMATURE_CLOSE), a form past its limits.
  return new AppError(400, 'orderImport.badMultipart');
}

/** The `file` field of a multipart/form-data request, at most IMPORT_MAX_BYTES, in memory. */
export async function readUploadedFile(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) throw new AppError(400, 'orderImport.notMultipart');
  if (Number(request.headers['content-length'] ?? 0) > IMPORT_MAX_BYTES + 64 * 1024) {
    request.raw.resume();
    throw tooLarge();
  }
  let found: UploadedFile | null = null;
  try {
    const parts: AsyncIterable<Multipart> = request.parts({ limits: IMPORT_FORM_LIMITS });
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      // A file in another field, or a second "file", is read past.
      if (part.fieldname !== 'file' || found !== null) part.file.resume();
      else found = { fileName: part.filename, data: await part.toBuffer() };
    }
  } catch (error) {
    // A second file (the browser sends one) is left aside once the first is read.
    const code = (error as { code?: unknown } | null)?.code;
    if (!(code === 'FST_FILES_LIMIT' && found !== null)) {
      request.raw.resume();
      throw asUploadError(error);
    }
  }
  if (found === null) throw new AppError(400, 'orderImport.noFile');
  return found;
}
