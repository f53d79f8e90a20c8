/**
 * The provider's answers and request bodies, as the embedded upload host speaks them (Qiniu
 * Kodo's upload API): errors are an HTTP status + `{"error": "..."}`, including 612 (no such
 * upload), 614 (file exists) and 631 (no such bucket), which Fastify's reply cannot send, so
 * those are written on the raw response; the answer of a stored object is the token's
 * returnBody with its `$(name)` variables filled in.
 */
import type { FastifyReply } from 'fastify';

/** Provider limits of multipart upload v2. */
export const MAX_PART_NUMBER = 10_000;
export const MAX_PART_BYTES = 1024 * 1024 * 1024;
export const MIN_PART_BYTES = 1024 * 1024;

const REASONS: Record<number, string> = {
  612: 'No Such Upload',
  614: 'File Exists',
  631: 'No Such Bucket',
};

/** A provider error answer: HTTP status + `{"error": message}`. */
export class HostError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HostError';
  }
}

export const noSuchUpload = () => new HostError(612, 'no such uploadId');
export const fileExists = () => new HostError(614, 'file exists');
export const tooLarge = () => new HostError(413, 'file exceeds the size limit');
export const notAnImage = (detected: string | null) =>
  new HostError(403, `limited mimeType: this file type (${detected ?? 'unknown'}) is forbidden to upload`);

/** Sends an answer, including statuses outside 100–599 that Fastify refuses (612, 614, 631). */
export function answer(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  const payload = JSON.stringify(body);
  if (status >= 100 && status <= 599) {
    return reply.code(status).type('application/json; charset=utf-8').send(payload);
  }
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value as string | number | string[];
  }
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = Buffer.byteLength(payload);
  reply.hijack();
  reply.raw.writeHead(status, REASONS[status] ?? 'Error', headers);
  reply.raw.end(payload);
  return reply;
}

export const sendError = (reply: FastifyReply, error: HostError) => answer(reply, error.status, { error: error.message });

/** What a returnBody may tell about a stored object. */
export interface StoredObject {
  bucket: string;
  key: string;
  size: number;
  qetag: string;
  mimeType: string;
  fname: string;
  customVars: Record<string, string>;
}

/** `$(name)` magic variables of a returnBody template, JSON-escaped. */
export function renderReturnBody(template: string | undefined, object: StoredObject, now: Date): unknown {
  const { key } = object;
  if (template === undefined || template === '') return { hash: object.qetag, key };
  const dot = key.lastIndexOf('.');
  const slash = key.lastIndexOf('/');
  const vars: Record<string, string | number> = {
    bucket: object.bucket,
    key,
    etag: object.qetag,
    hash: object.qetag,
    fname: object.fname,
    fsize: object.size,
    mimeType: object.mimeType,
    ext: dot > slash ? key.slice(dot) : '',
    fprefix: key.slice(slash + 1, dot > slash ? dot : undefined),
    year: String(now.getUTCFullYear()),
    mon: String(now.getUTCMonth() + 1).padStart(2, '0'),
    day: String(now.getUTCDate()).padStart(2, '0'),
    hour: String(now.getUTCHours()).padStart(2, '0'),
    min: String(now.getUTCMinutes()).padStart(2, '0'),
    sec: String(now.getUTCSeconds()).padStart(2, '0'),
  };
  const rendered = template.replace(/\$\(([A-Za-z0-9_:.-]+)\)/g, (_whole, name: string) => {
    const value = name.startsWith('x:') ? object.customVars[name] : vars[name];
    if (typeof value === 'number') return String(value);
    return JSON.stringify(value ?? '').slice(1, -1);
  });
  try {
    return JSON.parse(rendered) as unknown;
  } catch {
    throw new HostError(400, 'returnBody is not valid JSON');
  }
}

export interface CompleteBody {
  parts: { etag: string; partNumber: number }[];
  fname?: string;
  mimeType?: string;
  customVars?: Record<string, string>;
  metadata?: Record<string, string>;
}

function isStringRecord(value: unknown, prefix: string): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.entries(value).every(([k, v]) => k.startsWith(prefix) && typeof v === 'string')
  );
}

export function parseCompleteBody(body: unknown): CompleteBody {
  if (typeof body !== 'object' || body === null) throw new HostError(400, 'invalid complete request body');
  const { parts, fname, mimeType, customVars, metadata } = body as Record<string, unknown>;
  if (!Array.isArray(parts) || parts.length === 0 || parts.length > MAX_PART_NUMBER) {
    throw new HostError(400, 'parts must be a non-empty list');
  }
  let previous = 0;
  const checked = parts.map((part: unknown) => {
    const { etag, partNumber } = (part ?? {}) as Record<string, unknown>;
    if (typeof etag !== 'string' || typeof partNumber !== 'number' || !Number.isInteger(partNumber)) {
      throw new HostError(400, 'each part needs an etag and a partNumber');
    }
    if (partNumber <= previous || partNumber > MAX_PART_NUMBER) throw new HostError(400, 'partNumber must be ascending, 1 to 10000');
    previous = partNumber;
    return { etag, partNumber };
  });
  if (fname !== undefined && typeof fname !== 'string') throw new HostError(400, 'fname must be a string');
  if (mimeType !== undefined && typeof mimeType !== 'string') throw new HostError(400, 'mimeType must be a string');
  if (customVars !== undefined && !isStringRecord(customVars, 'x:')) throw new HostError(400, 'customVars keys must start with x:');
  if (metadata !== undefined && !isStringRecord(metadata, 'x-qn-meta-')) {
    throw new HostError(400, 'metadata keys must start with x-qn-meta-');
  }
  return { parts: checked, fname, mimeType, customVars, metadata };
}

/** `Content-MD5` as the SDK sends it (hex) or as HTTP defines it (base64), as hex. */
export function contentMd5(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string' || header === '') return undefined;
  if (/^[0-9a-fA-F]{32}$/.test(header)) return header.toLowerCase();
  const bytes = Buffer.from(header, 'base64');
  return bytes.length === 16 ? bytes.toString('hex') : header;
}
