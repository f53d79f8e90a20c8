/**
 * The embedded upload host: the parts of the storage provider's upload API (Qiniu Kodo)
 * that the browser SDK qiniu-js calls, answered by this server and stored on local disk.
 *
 * Mounted under a prefix (e.g. `/upload`); the SDK is pointed at it with
 * `uphost: '<host>/upload'`, so its requests arrive as:
 *
 *   POST /upload                                                       form upload (≤ 4 MB)
 *   POST /upload/buckets/<bucket>/objects/<b64 key>/uploads            init  -> {uploadId, expireAt}
 *   PUT  /upload/buckets/<bucket>/objects/<b64 key>/uploads/<id>/<n>   part  -> {etag, md5}
 *   POST /upload/buckets/<bucket>/objects/<b64 key>/uploads/<id>       complete -> returnBody
 *   DELETE (same as complete)                                          abort -> {}
 *   GET  /upload/files/<key>                                           the stored file
 *
 * Errors are the provider's: HTTP status + `{"error": "..."}`, including 612 (no such
 * upload) and 614 (file exists), which Fastify's reply cannot send, so those are written
 * on the raw response. Every request is authorised by the upload token alone (signature,
 * deadline, bucket and key scope); bytes stream to disk, never whole into memory.
 *
 * Layout under `<dataDir>/uploads`: `files/<key>` (the objects, a tree that mirrors the
 * bucket), `multipart/<uploadId>/` (parts of unfinished chunked uploads), `tmp/`.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, open, readFile, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Busboy } from '@fastify/busboy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DigestStream, QEtag, TooLargeError, type Digests } from './digest-stream.ts';
import { detectImageType, IMAGE_SNIFF_BYTES, mimeAllowed } from './image-type.ts';
import { isSafeKey, pathForKey } from './keys.ts';
import {
  parseScope,
  urlSafeBase64Decode,
  UploadTokenError,
  verifyUploadToken,
  type PutPolicy,
  type UploadKeys,
} from './upload-token.ts';

export interface LocalUploadHostOptions {
  /** The app's data directory; files go to `<dataDir>/uploads`. */
  dataDir: string;
  /** Largest accepted image in bytes (a token's own fsizeLimit can only lower it). */
  maxImageBytes: number;
  accessKey: string;
  secretKey: string;
  /** The only bucket this host serves. */
  bucket: string;
  /** How long an unfinished chunked upload is kept, seconds (default 24 h). */
  uploadIdTtlSeconds?: number;
  /** Clock, milliseconds; tests move it. */
  now?: () => number;
}

/** Provider limits of multipart upload v2. */
const MAX_PART_NUMBER = 10_000;
const MAX_PART_BYTES = 1024 * 1024 * 1024;
const MIN_PART_BYTES = 1024 * 1024;
/** Form fields besides the file: token, key, fname, crc32, x:*, x-qn-meta-*. */
const FORM_FIELD_BYTES = 64 * 1024;
const FORM_MAX_FIELDS = 200;
const COMPLETE_BODY_LIMIT = 2 * 1024 * 1024;
const UPLOAD_ID = /^[0-9a-f]{32}$/;

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

const noSuchUpload = () => new HostError(612, 'no such uploadId');
const fileExists = () => new HostError(614, 'file exists');
const tooLarge = () => new HostError(413, 'file exceeds the size limit');
const notAnImage = (detected: string | null) =>
  new HostError(403, `limited mimeType: this file type (${detected ?? 'unknown'}) is forbidden to upload`);

interface MultipartUpload {
  bucket: string;
  key: string;
  createdAt: number;
  /** Unix seconds. */
  expireAt: number;
}

interface StoredPart {
  etag: string;
  md5: string;
  size: number;
}

interface CompleteBody {
  parts: { etag: string; partNumber: number }[];
  fname?: string;
  mimeType?: string;
  customVars?: Record<string, string>;
  metadata?: Record<string, string>;
}

interface StoredObject {
  bucket: string;
  key: string;
  digests: Digests;
  mimeType: string;
  fname: string;
  customVars: Record<string, string>;
}

/** Sends an answer, including statuses outside 100–599 that Fastify refuses (612, 614, 631). */
function answer(reply: FastifyReply, status: number, body: unknown): FastifyReply {
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

const sendError = (reply: FastifyReply, error: HostError) => answer(reply, error.status, { error: error.message });

/** `$(name)` magic variables of a returnBody template, JSON-escaped. */
function renderReturnBody(template: string | undefined, object: StoredObject, now: Date): unknown {
  const { digests, key } = object;
  if (template === undefined || template === '') return { hash: digests.qetag, key };
  const dot = key.lastIndexOf('.');
  const slash = key.lastIndexOf('/');
  const vars: Record<string, string | number> = {
    bucket: object.bucket,
    key,
    etag: digests.qetag,
    hash: digests.qetag,
    fname: object.fname,
    fsize: digests.size,
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

function isStringRecord(value: unknown, prefix: string): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.entries(value).every(([k, v]) => k.startsWith(prefix) && typeof v === 'string')
  );
}

function parseCompleteBody(body: unknown): CompleteBody {
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
function contentMd5(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string' || header === '') return undefined;
  if (/^[0-9a-fA-F]{32}$/.test(header)) return header.toLowerCase();
  const bytes = Buffer.from(header, 'base64');
  return bytes.length === 16 ? bytes.toString('hex') : header;
}

export default async function localUploadHost(app: FastifyInstance, options: LocalUploadHostOptions): Promise<void> {
  const root = join(options.dataDir, 'uploads');
  const filesDir = join(root, 'files');
  const multipartDir = join(root, 'multipart');
  const tmpDir = join(root, 'tmp');
  const keys: UploadKeys = { accessKey: options.accessKey, secretKey: options.secretKey };
  const now = options.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  const uploadIdTtl = options.uploadIdTtlSeconds ?? 24 * 3600;
  const completing = new Set<string>();

  await mkdir(filesDir, { recursive: true });
  await mkdir(multipartDir, { recursive: true });
  // Leftovers of requests cut off by a crash or a restart.
  await rm(tmpDir, { recursive: true, force: true });
  await mkdir(tmpDir, { recursive: true });
  await removeExpiredUploads();
  const sweeper = setInterval(() => void removeExpiredUploads().catch((error: unknown) => app.log.warn({ err: error }, 'upload sweep failed')), 3600_000);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));

  async function removeExpiredUploads(): Promise<void> {
    for (const id of await readdir(multipartDir)) {
      const upload = await readUpload(id);
      if (upload === null || upload.expireAt < nowSeconds()) await rm(join(multipartDir, id), { recursive: true, force: true });
    }
  }

  const tmpFile = () => join(tmpDir, randomBytes(12).toString('hex'));

  // Bodies are read by the handlers as streams: never buffered by a parser.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: COMPLETE_BODY_LIMIT }, (_request, body, done) => {
    // The provider accepts an empty body under a JSON type: the Node SDK's init sends one.
    if ((body as string).trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new HostError(400, 'invalid JSON body'), undefined);
    }
  });
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof HostError) return sendError(reply, error);
    if (error instanceof UploadTokenError) return sendError(reply, new HostError(error.status, error.message));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendError(reply, new HostError(status, error.message));
    request.log.error({ err: error }, 'upload host failed');
    return sendError(reply, new HostError(599, 'internal error'));
  });
  app.setNotFoundHandler((_request, reply) => sendError(reply, new HostError(404, 'no such route')));

  // The provider's hosts allow any origin: the token is the credential, there are no cookies.
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('access-control-allow-origin', '*');
    void reply.header('access-control-expose-headers', 'X-Reqid');
    void reply.header('x-reqid', request.id);
  });
  app.options('/*', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, HEAD, POST, PUT, DELETE, OPTIONS')
      .header('access-control-allow-headers', 'Authorization, Content-Type, Content-MD5')
      .header('access-control-max-age', '86400')
      .send(),
  );

  /** The token's policy, after the bucket check. */
  function authorise(token: string | undefined): PutPolicy {
    const policy = verifyUploadToken(token, keys, nowSeconds());
    if (parseScope(policy.scope).bucket !== options.bucket) throw new HostError(631, 'no such bucket');
    return policy;
  }

  /** The key a request may write: the scope's key, and the same key if the request names one. */
  function keyFor(policy: PutPolicy, requested: string | undefined): string {
    const scope = parseScope(policy.scope);
    if (scope.key !== undefined && requested !== undefined && requested !== scope.key) {
      throw new HostError(403, "key doesn't match with scope");
    }
    const key = requested ?? scope.key;
    if (key === undefined) throw new HostError(400, 'key not specified');
    if (!isSafeKey(key)) throw new HostError(400, 'invalid key');
    return key;
  }

  function upToken(request: FastifyRequest): string | undefined {
    const header = request.headers.authorization;
    return header?.startsWith('UpToken ') ? header.slice('UpToken '.length).trim() : undefined;
  }

  const sizeLimit = (policy: PutPolicy): number =>
    typeof policy.fsizeLimit === 'number' && policy.fsizeLimit > 0 ? Math.min(policy.fsizeLimit, options.maxImageBytes) : options.maxImageBytes;

  /** Checks the content is an accepted image, and allowed by the policy's mimeLimit. */
  function imageType(head: Buffer, policy: PutPolicy): string {
    const detected = detectImageType(head);
    if (detected === null || !mimeAllowed(detected, policy.mimeLimit)) throw notAnImage(detected);
    return detected;
  }

  /** Gives a finished temporary file its key, never replacing anything (link fails if the name exists). */
  async function store(tmp: string, key: string): Promise<void> {
    const target = pathForKey(filesDir, key);
    if (target === null) throw new HostError(400, 'invalid key');
    try {
      await mkdir(dirname(target), { recursive: true });
      await link(tmp, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR') throw fileExists();
      throw error;
    } finally {
      await unlink(tmp).catch(() => undefined);
    }
  }

  async function keyExists(key: string): Promise<boolean> {
    const path = pathForKey(filesDir, key);
    if (path === null) return false;
    return stat(path).then(
      () => true,
      () => false,
    );
  }

  function answerStored(reply: FastifyReply, policy: PutPolicy, object: StoredObject): FastifyReply {
    return answer(reply, 200, renderReturnBody(policy.returnBody, object, new Date(now())));
  }

  // ---- Form upload -------------------------------------------------------------------

  app.post('/', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const contentType = request.headers['content-type'] ?? '';
    if (!contentType.toLowerCase().startsWith('multipart/form-data')) throw new HostError(400, 'expected multipart/form-data');
    // A form is the file plus small fields: refuse an announced oversize body before reading it.
    const announced = Number(request.headers['content-length'] ?? 0);
    if (announced > options.maxImageBytes + FORM_FIELD_BYTES * 4) throw tooLarge();

    const fields = new Map<string, string>();
    let file: { tmp: string; digests: Digests; fname: string } | undefined;
    let earlyPolicy: PutPolicy | undefined;

    try {
      await new Promise<void>((resolvePromise, reject) => {
        let pending: Promise<void> = Promise.resolve();
        let failed = false;
        const fail = (error: unknown) => {
          if (failed) return;
          failed = true;
          request.raw.unpipe(busboy);
          request.raw.resume(); // discard the rest of the body
          reject(error);
        };
        const busboy = Busboy({
          headers: { ...request.headers, 'content-type': contentType },
          limits: { fieldSize: FORM_FIELD_BYTES, fields: FORM_MAX_FIELDS, files: 1, parts: FORM_MAX_FIELDS + 1 },
        });
        busboy.on('field', (name: string, value: string, nameTruncated: boolean, valueTruncated: boolean) => {
          if (nameTruncated || valueTruncated) fail(new HostError(400, `form field ${name} is too long`));
          else fields.set(name, value);
        });
        busboy.on('file', (name: string, stream: NodeJS.ReadableStream & { resume(): void }, filename: string) => {
          if (name !== 'file' || file !== undefined) {
            stream.resume();
            return;
          }
          try {
            // Clients that send the token before the file are checked before any byte is stored.
            if (fields.has('token')) earlyPolicy = authorise(fields.get('token'));
          } catch (error) {
            stream.resume();
            fail(error);
            return;
          }
          const tmp = tmpFile();
          const digest = new DigestStream(earlyPolicy ? sizeLimit(earlyPolicy) : options.maxImageBytes);
          pending = pipeline(stream, digest, createWriteStream(tmp)).then(
            () => {
              file = { tmp, digests: digest.digests(), fname: filename };
            },
            async (error: unknown) => {
              await unlink(tmp).catch(() => undefined);
              throw error instanceof TooLargeError ? tooLarge() : error;
            },
          );
          pending.catch(fail);
        });
        busboy.on('filesLimit', () => fail(new HostError(400, 'only one file per upload')));
        busboy.on('fieldsLimit', () => fail(new HostError(400, 'too many form fields')));
        busboy.on('partsLimit', () => fail(new HostError(400, 'too many form parts')));
        busboy.on('error', (error: unknown) => fail(new HostError(400, `invalid multipart body: ${String((error as Error).message ?? error)}`)));
        busboy.on('finish', () => {
          pending.then(() => {
            if (!failed) resolvePromise();
          }, fail);
        });
        request.raw.on('error', fail);
        request.raw.pipe(busboy);
      });

      const policy = authorise(fields.get('token'));
      const key = keyFor(policy, fields.get('key'));
      if (file === undefined) throw new HostError(400, 'file not specified');
      if (file.digests.size === 0) throw new HostError(400, 'file is empty');
      if (file.digests.size > sizeLimit(policy)) throw tooLarge();
      const mimeType = imageType(file.digests.head, policy);
      const crc = fields.get('crc32');
      if (crc !== undefined && crc !== '' && Number(crc) !== file.digests.crc32) throw new HostError(406, 'crc32 not match');

      await store(file.tmp, key);
      const customVars = Object.fromEntries([...fields].filter(([name]) => name.startsWith('x:')));
      const fname = fields.get('fname') || file.fname;
      return answerStored(reply, policy, { bucket: options.bucket, key, digests: file.digests, mimeType, fname, customVars });
    } finally {
      if (file !== undefined) await unlink(file.tmp).catch(() => undefined);
    }
  });

  // ---- Chunked upload (multipart v2) -------------------------------------------------

  interface ObjectParams {
    bucket: string;
    encodedKey: string;
  }

  /** Token + URL bucket + URL key, checked together; returns the policy and the key. */
  function authoriseObject(request: FastifyRequest, params: ObjectParams): { policy: PutPolicy; key: string } {
    const policy = authorise(upToken(request));
    if (params.bucket !== options.bucket) throw new HostError(631, 'no such bucket');
    let requested: string | undefined;
    if (params.encodedKey !== '~') {
      const decoded = urlSafeBase64Decode(params.encodedKey);
      if (decoded === null) throw new HostError(400, 'invalid encoded key');
      requested = decoded.toString('utf8');
    }
    return { policy, key: keyFor(policy, requested) };
  }

  async function readUpload(id: string): Promise<MultipartUpload | null> {
    if (!UPLOAD_ID.test(id)) return null;
    try {
      return JSON.parse(await readFile(join(multipartDir, id, 'upload.json'), 'utf8')) as MultipartUpload;
    } catch {
      return null;
    }
  }

  /** The live upload `id` for this key, or 612. */
  async function openUpload(id: string, key: string): Promise<{ dir: string; upload: MultipartUpload }> {
    const upload = await readUpload(id);
    if (upload === null || upload.bucket !== options.bucket || upload.key !== key || upload.expireAt < nowSeconds()) {
      throw noSuchUpload();
    }
    return { dir: join(multipartDir, id), upload };
  }

  async function readParts(dir: string): Promise<Map<number, StoredPart>> {
    const parts = new Map<number, StoredPart>();
    for (const name of await readdir(dir)) {
      const match = /^(\d+)\.json$/.exec(name);
      if (!match) continue;
      try {
        parts.set(Number(match[1]), JSON.parse(await readFile(join(dir, name), 'utf8')) as StoredPart);
      } catch {
        // A part being written right now: not complete yet.
      }
    }
    return parts;
  }

  const objectRoute = '/buckets/:bucket/objects/:encodedKey/uploads';

  app.post<{ Params: ObjectParams }>(objectRoute, { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const { key } = authoriseObject(request, request.params);
    if (await keyExists(key)) throw fileExists();
    const id = randomBytes(16).toString('hex');
    const upload: MultipartUpload = { bucket: options.bucket, key, createdAt: nowSeconds(), expireAt: nowSeconds() + uploadIdTtl };
    await mkdir(join(multipartDir, id));
    await writeFile(join(multipartDir, id, 'upload.json'), JSON.stringify(upload));
    return answer(reply, 200, { uploadId: id, expireAt: upload.expireAt });
  });

  app.put<{ Params: ObjectParams & { uploadId: string; partNumber: string } }>(
    `${objectRoute}/:uploadId/:partNumber`,
    { config: { auth: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      const { policy, key } = authoriseObject(request, request.params);
      const { dir } = await openUpload(request.params.uploadId, key);
      const partText = request.params.partNumber;
      const partNumber = /^[1-9]\d{0,4}$/.test(partText) ? Number(partText) : 0;
      if (partNumber < 1 || partNumber > MAX_PART_NUMBER) throw new HostError(400, 'partNumber must be 1 to 10000');

      // What the other parts already hold counts against the object's size limit.
      const others = [...(await readParts(dir))].filter(([n]) => n !== partNumber).reduce((sum, [, p]) => sum + p.size, 0);
      const room = Math.min(MAX_PART_BYTES, sizeLimit(policy) - others);
      if (room <= 0 || Number(request.headers['content-length'] ?? 0) > room) throw tooLarge();

      const tmp = join(dir, `${partNumber}.${randomBytes(6).toString('hex')}.tmp`);
      const digest = new DigestStream(room);
      try {
        await pipeline(request.raw, digest, createWriteStream(tmp));
      } catch (error) {
        await unlink(tmp).catch(() => undefined);
        if (error instanceof TooLargeError) throw tooLarge();
        throw error;
      }
      const digests = digest.digests();
      try {
        if (digests.size === 0) throw new HostError(400, 'part is empty');
        const expectedMd5 = contentMd5(request.headers['content-md5']);
        if (expectedMd5 !== undefined && expectedMd5 !== digests.md5) throw new HostError(400, 'Content-MD5 not match');
        // The first part holds the file's header: refuse a non-image before the rest arrives.
        if (partNumber === 1) imageType(digests.head, policy);
        if ((await readUpload(request.params.uploadId)) === null) throw noSuchUpload();
        await rename(tmp, join(dir, String(partNumber)));
      } catch (error) {
        await unlink(tmp).catch(() => undefined);
        throw error;
      }
      const part: StoredPart = { etag: digests.qetag, md5: digests.md5, size: digests.size };
      await writeFile(join(dir, `${partNumber}.json`), JSON.stringify(part));
      return answer(reply, 200, { etag: part.etag, md5: part.md5 });
    },
  );

  app.post<{ Params: ObjectParams & { uploadId: string } }>(
    `${objectRoute}/:uploadId`,
    { config: { auth: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      const { policy, key } = authoriseObject(request, request.params);
      const id = request.params.uploadId;
      const { dir } = await openUpload(id, key);
      const body = parseCompleteBody(request.body);
      if (completing.has(id)) throw noSuchUpload();
      completing.add(id);
      const tmp = tmpFile();
      try {
        const stored = await readParts(dir);
        const chosen = body.parts.map(({ etag, partNumber }) => {
          const part = stored.get(partNumber);
          if (part === undefined || part.etag !== etag) throw new HostError(400, `invalid part ${partNumber}: etag does not match`);
          return { ...part, partNumber };
        });
        chosen.forEach((part, i) => {
          if (i < chosen.length - 1 && part.size < MIN_PART_BYTES) throw new HostError(400, `part ${part.partNumber} is smaller than 1 MB`);
        });
        const total = chosen.reduce((sum, p) => sum + p.size, 0);
        if (total > sizeLimit(policy)) throw tooLarge();

        const head = Buffer.alloc(IMAGE_SNIFF_BYTES);
        const handle = await open(join(dir, String(chosen[0]!.partNumber)), 'r');
        const { bytesRead } = await handle.read(head, 0, IMAGE_SNIFF_BYTES, 0).finally(() => handle.close());
        const mimeType = imageType(head.subarray(0, bytesRead), policy);
        if (await keyExists(key)) throw fileExists();

        // Concatenate the parts into one file, hashing the whole object as it goes.
        const whole = new DigestStream(total);
        async function* concatenated() {
          for (const part of chosen) yield* createReadStream(join(dir, String(part.partNumber)));
        }
        await pipeline(concatenated, whole, createWriteStream(tmp));
        const digests = whole.digests();
        if (digests.size !== total) throw new HostError(400, 'parts changed while completing');

        await store(tmp, key);
        await rm(dir, { recursive: true, force: true });
        return answerStored(reply, policy, {
          bucket: options.bucket,
          key,
          digests,
          mimeType,
          fname: body.fname ?? '',
          customVars: body.customVars ?? {},
        });
      } finally {
        completing.delete(id);
        await unlink(tmp).catch(() => undefined);
      }
    },
  );

  app.delete<{ Params: ObjectParams & { uploadId: string } }>(
    `${objectRoute}/:uploadId`,
    { config: { auth: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      const { key } = authoriseObject(request, request.params);
      const { dir } = await openUpload(request.params.uploadId, key);
      await rm(dir, { recursive: true, force: true });
      return answer(reply, 200, {});
    },
  );

  // ---- Serving the stored files -------------------------------------------------------

  const serveFile = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    const path = pathForKey(filesDir, request.params['*']);
    const info = path === null ? null : await stat(path).catch(() => null);
    if (path === null || info === null || !info.isFile()) throw new HostError(404, 'no such file or directory');

    const head = Buffer.alloc(IMAGE_SNIFF_BYTES);
    const handle = await open(path, 'r');
    const { bytesRead } = await handle.read(head, 0, IMAGE_SNIFF_BYTES, 0).finally(() => handle.close());
    const type = detectImageType(head.subarray(0, bytesRead));
    const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;

    void reply
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cross-origin-resource-policy', 'same-site')
      // A key is never overwritten, so its bytes never change.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', etag)
      .header('last-modified', info.mtime.toUTCString());
    if (type === null) void reply.header('content-disposition', 'attachment');
    void reply.type(type ?? 'application/octet-stream');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    void reply.header('content-length', info.size);
    if (request.method === 'HEAD') return reply.send();
    return reply.send(createReadStream(path));
  };
  // An own HEAD route: Fastify's automatic one would read the whole file to discard it.
  app.get('/files/*', { config: { auth: 'public' }, schema: { hide: true }, exposeHeadRoute: false }, serveFile);
  app.head('/files/*', { config: { auth: 'public' }, schema: { hide: true } }, serveFile);

  // Unknown paths under the prefix get the provider's 404, not the web app's index.html.
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
    url: '/*',
    exposeHeadRoute: false,
    config: { auth: 'public' },
    schema: { hide: true },
    handler: async () => {
      throw new HostError(404, 'no such route');
    },
  });
}

/** For tests and the benchmark: the qetag of a buffer. */
export function qetagOf(data: Buffer): string {
  const hash = new QEtag();
  hash.update(data);
  return hash.digest();
}
