/**
 * The upload of an order import: the `file` field of a multipart/form-data request, at most
 * IMPORT_MAX_BYTES, kept in memory (the xlsx reader reorders its parts, see read.ts).
 */
import { Busboy } from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../lib/errors.ts';

export const IMPORT_MAX_MB = 20;
export const IMPORT_MAX_BYTES = IMPORT_MAX_MB * 1024 * 1024;

export interface UploadedFile {
  fileName: string;
  data: Buffer;
}

/** The `file` field of a multipart/form-data request, at most IMPORT_MAX_BYTES, in memory. */
export async function readUploadedFile(request: FastifyRequest): Promise<UploadedFile> {
  const contentType = request.headers['content-type'] ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) throw new AppError(400, 'orderImport.notMultipart');
  if (Number(request.headers['content-length'] ?? 0) > IMPORT_MAX_BYTES + 64 * 1024) {
    request.raw.resume();
    throw new AppError(413, 'orderImport.tooLarge', { max: IMPORT_MAX_MB });
  }
  let busboy: ReturnType<typeof Busboy>;
  try {
    busboy = Busboy({
      headers: { ...request.headers, 'content-type': contentType },
      limits: { files: 1, fields: 20, parts: 21, fileSize: IMPORT_MAX_BYTES, fieldSize: 1024 },
    });
  } catch {
    throw new AppError(400, 'orderImport.badMultipart');
  }
  const file = await new Promise<UploadedFile | null>((resolve, reject) => {
    let found: Promise<UploadedFile> | null = null;
    let failed = false;
    const fail = (error: AppError) => {
      if (failed) return;
      failed = true;
      request.raw.unpipe(busboy);
      request.raw.resume();
      reject(error);
    };
    busboy.on('file', (name, stream, fileName) => {
      if (name !== 'file' || found !== null) {
        stream.resume();
        return;
      }
      found = new Promise<UploadedFile>((done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('limit', () => fail(new AppError(413, 'orderImport.tooLarge', { max: IMPORT_MAX_MB })));
        stream.on('end', () => done({ fileName, data: Buffer.concat(chunks) }));
      });
    });
    busboy.on('error', () => fail(new AppError(400, 'orderImport.badMultipart')));
    busboy.on('finish', () => {
      if (failed) return;
      if (found === null) resolve(null);
      else found.then(resolve, reject);
    });
    request.raw.on('error', () => fail(new AppError(400, 'orderImport.badMultipart')));
    // A client that goes away mid-upload: the body never completes.
    request.raw.on('close', () => {
      if (!request.raw.complete) fail(new AppError(400, 'orderImport.badMultipart'));
    });
    request.raw.pipe(busboy);
  });
  if (file === null) throw new AppError(400, 'orderImport.noFile');
  return file;
}
