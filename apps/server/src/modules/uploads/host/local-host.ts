/**
 * The embedded upload host: the parts of the storage provider's upload API (Qiniu Kodo)
 * that its SDKs call (qiniu-js in the browser, the qiniu Node SDK), answered by this server
 * and stored on local disk. This file is the protocol's routes and checks; the answers are
 * in host-protocol.ts, the storage in ../stores/local-blob-store.ts (objects) and
 * host-storage.ts (unfinished chunked uploads), the serving of stored files in host-serving.ts.
 *
 * Mounted under a prefix (e.g. `/upload`); an SDK is pointed at it as its up host, so its
 * requests arrive as:
 *
 *   POST /upload                                                       form upload (≤ 4 MB)
 *   POST /upload/buckets/<bucket>/objects/<b64 key>/uploads            init  -> {uploadId, expireAt}
 *   PUT  /upload/buckets/<bucket>/objects/<b64 key>/uploads/<id>/<n>   part  -> {etag, md5}
 *   POST /upload/buckets/<bucket>/objects/<b64 key>/uploads/<id>       complete -> returnBody
 *   DELETE (same as complete)                                          abort -> {}
 *   GET  /upload/files/<key>?e=<deadline>&token=<sig>                  the stored file (an avatar needs no signature)
 *
 * Every request is authorised by the upload token alone (signature, deadline, bucket and
 * key scope); bytes stream to disk and are hashed as they come, never whole into memory.
 */
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BlobExistsError } from '../stores/blob-store.ts';
import { DigestStream, PASS_ON_BYTES, TooLargeError, type Digests } from '../hashing/digest-stream.ts';
import {
  answer,
  contentMd5,
  fileExists,
  HostError,
  MAX_PART_BYTES,
  MAX_PART_NUMBER,
  MIN_PART_BYTES,
  noSuchUpload,
  notAnImage,
  parseCompleteBody,
  renderReturnBody,
  sendError,
  tooLarge,
  type StoredObject,
} from './host-protocol.ts';
import { serveStoredFiles } from './host-serving.ts';
import { MultipartStaging, PartLengthError, type MultipartUpload } from './host-storage.ts';
import { detectImageType, mimeAllowed } from '../image-type.ts';
import { isSafeKey } from '../keys.ts';
import { LocalBlobStore } from '../stores/local-blob-store.ts';
import { LOCAL_UPLOAD_PREFIX } from '../uploads.config.ts';
import { parseScope, urlSafeBase64Decode, UploadTokenError, verifyUploadToken, type PutPolicy, type UploadKeys } from '../upload-token.ts';

export { HostError } from './host-protocol.ts';

export interface LocalUploadHostOptions {
  /** The app's data directory; files go to `<dataDir>/uploads` unless `uploadsDir` says otherwise. */
  dataDir: string;
  /** The folder of the files and unfinished uploads (UPLOADS_DIR); with several instances, a shared volume. */
  uploadsDir?: string;
  /** Largest accepted image in bytes (a token's own fsizeLimit can only lower it). */
  maxImageBytes: number;
  accessKey: string;
  secretKey: string;
  /** The only bucket this host serves. */
  bucket: string;
  /** The secret evidence links are signed with (decision 0082). */
  evidenceUrlSecret: string;
  /** Where the host is mounted (default `/upload`): part of every signed path. */
  mountPath?: string;
  /** How long an unfinished chunked upload is kept, seconds (default 24 h). */
  uploadIdTtlSeconds?: number;
  /** Clock, milliseconds; tests move it. */
  now?: () => number;
  /** The only process writing the image folder (INSTANCES=single): its start sweeps every crash leftover. */
  alone?: boolean;
}

/** Form fields besides the file: token, key, fname, crc32, x:*, x-qn-meta-*. */
const FORM_FIELD_BYTES = 64 * 1024;
const FORM_MAX_FIELDS = 200;
const COMPLETE_BODY_LIMIT = 2 * 1024 * 1024;

/** @fastify/multipart's errors, in the provider's words. */
const MULTIPART_ERRORS: Record<string, () => HostError> = {
  FST_FILES_LIMIT: () => new HostError(400, 'only one file per upload'),
  FST_FIELDS_LIMIT: () => new HostError(400, 'too many form fields'),
  FST_PARTS_LIMIT: () => new HostError(400, 'too many form parts'),
  FST_REQ_FILE_TOO_LARGE: tooLarge,
  FST_PROTO_VIOLATION: () => new HostError(400, 'invalid form field name'),
};

/**
 * An error of reading the form as the provider's: the parser's own errors (busboy's plain
 * `Error`s: "Unexpected end of multipart data", "Multipart: Boundary not found") are a bad
 * request, 400, not the host's failure; errors with a code (the limits, the disk) keep theirs.
 */
function asFormError(error: unknown): unknown {
  if (error instanceof HostError || error instanceof UploadTokenError || error instanceof BlobExistsError) return error;
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  if (typeof code === 'string' || typeof statusCode === 'number') return error;
  return new HostError(400, 'invalid multipart form');
}

/** The form's parts, a malformed form refused as the provider does (400). */
async function* formParts(request: FastifyRequest): AsyncGenerator<Multipart> {
  const parts = request.parts()[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (error) {
      throw asFormError(error);
    }
    if (next.done === true) return;
    yield next.value;
  }
}

/**
 * The file system refusing to write (reliability/faults-disk.test.ts): the provider's code for a
 * failed server operation (599), with what an operator or a user can act on instead of
 * "internal error".
 */
const STORAGE_ERRORS: Record<string, string> = {
  ENOSPC: 'no space left on the storage',
  EDQUOT: 'no space left on the storage',
  EROFS: 'the storage is read-only',
};

export default async function localUploadHost(app: FastifyInstance, options: LocalUploadHostOptions): Promise<void> {
  const store = new LocalBlobStore(options.dataDir, options.uploadsDir);
  const staging = new MultipartStaging(join(store.root, 'multipart'));
  const keys: UploadKeys = { accessKey: options.accessKey, secretKey: options.secretKey };
  const now = options.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  const uploadIdTtl = options.uploadIdTtlSeconds ?? 24 * 3600;
  const completing = new Set<string>();

  await store.prepare(true, now(), options.alone === true);
  await staging.prepare();
  if (options.alone === true) await staging.removeCrashLeftovers();
  await staging.removeExpired(nowSeconds());
  const sweeper = setInterval(
    () => void staging.removeExpired(nowSeconds()).catch((error: unknown) => app.log.warn({ err: error }, 'upload sweep failed')),
    3600_000,
  );
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));

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
  await app.register(fastifyMultipart, {
    limits: {
      fieldSize: FORM_FIELD_BYTES,
      fields: FORM_MAX_FIELDS,
      files: 1,
      parts: FORM_MAX_FIELDS + 1,
      fileSize: options.maxImageBytes + 1,
    },
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof HostError) return sendError(reply, error);
    if (error instanceof UploadTokenError) return sendError(reply, new HostError(error.status, error.message));
    if (error instanceof BlobExistsError) return sendError(reply, fileExists());
    const known = error.code === undefined ? undefined : MULTIPART_ERRORS[error.code];
    if (known !== undefined) return sendError(reply, known());
    const storage = error.code === undefined ? undefined : STORAGE_ERRORS[error.code];
    if (storage !== undefined) {
      request.log.error({ err: error }, 'upload host: the storage refused to write');
      return sendError(reply, new HostError(599, storage));
    }
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

  const sizeLimit = (policy: PutPolicy): number =>
    typeof policy.fsizeLimit === 'number' && policy.fsizeLimit > 0
      ? Math.min(policy.fsizeLimit, options.maxImageBytes)
      : options.maxImageBytes;

  /** Checks the content is an accepted image, and allowed by the policy's mimeLimit. */
  function imageType(head: Buffer, policy: PutPolicy): string {
    const detected = detectImageType(head);
    if (detected === null || !mimeAllowed(detected, policy.mimeLimit)) throw notAnImage(detected);
    return detected;
  }

  function answerStored(reply: FastifyReply, policy: PutPolicy, object: Omit<StoredObject, 'bucket'>): FastifyReply {
    return answer(reply, 200, renderReturnBody(policy.returnBody, { bucket: options.bucket, ...object }, new Date(now())));
  }

  // ---- Form upload -------------------------------------------------------------------

  app.post('/', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (!request.isMultipart()) throw new HostError(400, 'expected multipart/form-data');
    // A form is the file plus small fields: refuse an announced oversize body before reading it.
    if (Number(request.headers['content-length'] ?? 0) > options.maxImageBytes + FORM_FIELD_BYTES * 4) throw tooLarge();

    const fields = new Map<string, string>();
    let file: { tmp: string; digests: Digests; fname: string } | undefined;
    try {
      // qiniu-js sends the file first and the token after it; a token sent first is checked before any byte is stored.
      for await (const part of formParts(request)) {
        if (part.type === 'field') {
          if (part.fieldnameTruncated || part.valueTruncated) throw new HostError(400, `form field ${part.fieldname} is too long`);
          fields.set(part.fieldname, String(part.value));
          continue;
        }
        if (part.fieldname !== 'file' || file !== undefined) {
          part.file.resume();
          continue;
        }
        const early = fields.has('token') ? authorise(fields.get('token')) : undefined;
        const tmp = store.tmpFile();
        const digest = new DigestStream(early ? sizeLimit(early) : options.maxImageBytes, { crc32: true });
        try {
          await pipeline(part.file, digest, createWriteStream(tmp, { highWaterMark: PASS_ON_BYTES }));
        } catch (error) {
          await unlink(tmp).catch(() => undefined);
          throw error instanceof TooLargeError ? tooLarge() : asFormError(error);
        }
        file = { tmp, digests: digest.digests(), fname: part.filename };
      }

      const policy = authorise(fields.get('token'));
      const key = keyFor(policy, fields.get('key'));
      if (file === undefined) throw new HostError(400, 'file not specified');
      const { digests } = file;
      if (digests.size === 0) throw new HostError(400, 'file is empty');
      if (digests.size > sizeLimit(policy)) throw tooLarge();
      const mimeType = imageType(digests.head, policy);
      const crc = fields.get('crc32');
      if (crc !== undefined && crc !== '' && Number(crc) !== digests.crc32) throw new HostError(406, 'crc32 not match');

      await store.commit(file.tmp, key);
      const customVars = Object.fromEntries([...fields].filter(([name]) => name.startsWith('x:')));
      const fname = fields.get('fname') || file.fname;
      return answerStored(reply, policy, { key, size: digests.size, qetag: digests.qetag, mimeType, fname, customVars });
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
    const header = request.headers.authorization;
    const policy = authorise(header?.startsWith('UpToken ') ? header.slice('UpToken '.length).trim() : undefined);
    if (params.bucket !== options.bucket) throw new HostError(631, 'no such bucket');
    let requested: string | undefined;
    if (params.encodedKey !== '~') {
      const decoded = urlSafeBase64Decode(params.encodedKey);
      if (decoded === null) throw new HostError(400, 'invalid encoded key');
      requested = decoded.toString('utf8');
    }
    return { policy, key: keyFor(policy, requested) };
  }

  /** The live upload `id` for this key, or 612. */
  async function openUpload(id: string, key: string): Promise<MultipartUpload> {
    const upload = await staging.read(id);
    if (upload === null || upload.bucket !== options.bucket || upload.key !== key || upload.expireAt < nowSeconds()) {
      throw noSuchUpload();
    }
    return upload;
  }

  const objectRoute = '/buckets/:bucket/objects/:encodedKey/uploads';
  const route = { config: { auth: 'public' }, schema: { hide: true } } as const;

  app.post<{ Params: ObjectParams }>(objectRoute, route, async (request, reply) => {
    const { key } = authoriseObject(request, request.params);
    if ((await store.stat(key)) !== null) throw fileExists();
    const upload: MultipartUpload = { bucket: options.bucket, key, createdAt: nowSeconds(), expireAt: nowSeconds() + uploadIdTtl };
    const uploadId = await staging.create(upload);
    return answer(reply, 200, { uploadId, expireAt: upload.expireAt });
  });

  app.put<{ Params: ObjectParams & { uploadId: string; partNumber: string } }>(
    `${objectRoute}/:uploadId/:partNumber`,
    route,
    async (request, reply) => {
      const { policy, key } = authoriseObject(request, request.params);
      const id = request.params.uploadId;
      await openUpload(id, key);
      const partText = request.params.partNumber;
      const partNumber = /^[1-9]\d{0,4}$/.test(partText) ? Number(partText) : 0;
      if (partNumber < 1 || partNumber > MAX_PART_NUMBER) throw new HostError(400, 'partNumber must be 1 to 10000');

      // What the other parts already hold counts against the object's size limit.
      const others = [...(await staging.parts(id))].filter(([n]) => n !== partNumber).reduce((sum, [, p]) => sum + p.size, 0);
      const room = Math.min(MAX_PART_BYTES, sizeLimit(policy) - others);
      if (room <= 0 || Number(request.headers['content-length'] ?? 0) > room) throw tooLarge();

      if (completing.has(id)) throw noSuchUpload();
      const expectedMd5 = contentMd5(request.headers['content-md5']);
      const announced = request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
      const length = announced !== undefined && Number.isSafeInteger(announced) ? announced : undefined;
      const part = await staging
        .writePart(id, partNumber, request.raw, { maxBytes: room, length }, async (digests) => {
          if (digests.size === 0) throw new HostError(400, 'part is empty');
          if (expectedMd5 !== undefined && expectedMd5 !== digests.md5) throw new HostError(400, 'Content-MD5 not match');
          // The first part holds the file's header: refuse a non-image before the rest arrives.
          if (partNumber === 1) imageType(digests.head, policy);
          if ((await staging.read(id)) === null) throw noSuchUpload();
        })
        .catch((error: unknown) => {
          if (error instanceof PartLengthError) throw new HostError(400, 'part is shorter than its Content-Length');
          throw error instanceof TooLargeError ? tooLarge() : error;
        });
      return answer(reply, 200, { etag: part.etag, md5: part.md5 });
    },
  );

  app.post<{ Params: ObjectParams & { uploadId: string } }>(`${objectRoute}/:uploadId`, route, async (request, reply) => {
    const { policy, key } = authoriseObject(request, request.params);
    const id = request.params.uploadId;
    await openUpload(id, key);
    const body = parseCompleteBody(request.body);
    if (completing.has(id)) throw noSuchUpload();
    completing.add(id);
    try {
      const stored = await staging.parts(id);
      const chosen = body.parts.map(({ etag, partNumber }) => {
        const part = stored.get(partNumber);
        if (part === undefined || part.etag !== etag) throw new HostError(400, `invalid part ${partNumber}: etag does not match`);
        return { partNumber, part };
      });
      chosen.forEach(({ partNumber, part }, i) => {
        if (i < chosen.length - 1 && part.size < MIN_PART_BYTES) throw new HostError(400, `part ${partNumber} is smaller than 1 MB`);
      });
      if (chosen.reduce((sum, c) => sum + c.part.size, 0) > sizeLimit(policy)) throw tooLarge();
      const mimeType = imageType(Buffer.from(chosen[0]!.part.head, 'base64'), policy);
      if ((await store.stat(key)) !== null) throw fileExists();

      const joined = await staging.join(id, chosen).catch((error: unknown) => {
        request.log.warn({ err: error }, 'joining the parts failed');
        throw new HostError(400, 'parts changed while completing');
      });
      const { size, qetag } = joined;
      await store.commit(joined.path, key);
      await staging.remove(id);
      return answerStored(reply, policy, { key, size, qetag, mimeType, fname: body.fname ?? '', customVars: body.customVars ?? {} });
    } finally {
      completing.delete(id);
    }
  });

  app.delete<{ Params: ObjectParams & { uploadId: string } }>(`${objectRoute}/:uploadId`, route, async (request, reply) => {
    const { key } = authoriseObject(request, request.params);
    await openUpload(request.params.uploadId, key);
    await staging.remove(request.params.uploadId);
    return answer(reply, 200, {});
  });

  // ---- Serving the stored files -------------------------------------------------------

  await serveStoredFiles(app, store, { secret: options.evidenceUrlSecret, prefix: options.mountPath ?? LOCAL_UPLOAD_PREFIX, now });

  // Unknown paths under the prefix get the provider's 404, not the web app's index.html.
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
    url: '/*',
    exposeHeadRoute: false,
    ...route,
    handler: async () => {
      throw new HostError(404, 'no such route');
    },
  });
}
