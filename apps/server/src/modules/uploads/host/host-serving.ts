/**
 * The embedded host serves its stored images at `<prefix>/files/<key>` through
 * @fastify/static (ranges, conditional GET, HEAD). What is ours: only safe keys of existing
 * files are served (anything else is the provider's 404), the type comes from the file's
 * magic bytes (keys carry no extension), and the headers that keep an uploaded file inert:
 * `nosniff`, a sandbox CSP, same-site resource policy, and `attachment` for a non-image.
 * Evidence is private (decision 0082): only with a valid, unexpired signature over its path
 * (`?e=<deadline>&token=<sig>`, ../evidence/evidence-urls.ts), cached privately no longer than
 * the link lives; anything else is 403 before the file is looked at. Avatars stay public and
 * immutable.
 */
import { open } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkLocalSignature, isPrivateKey } from '../evidence/evidence-urls.ts';
import { HostError } from './host-protocol.ts';
import { isSafeKey } from '../keys.ts';
import { detectImageType, IMAGE_SNIFF_BYTES } from '../image-type.ts';
import type { LocalBlobStore } from '../stores/local-blob-store.ts';

const sniffed = new WeakMap<FastifyRequest, string | null>();
const cacheControl = new WeakMap<FastifyRequest, string>();
/** A public file (an avatar) is never overwritten, so its bytes never change. */
const PUBLIC_CACHE = 'public, max-age=31536000, immutable';

const REFUSED = { missing: 'signature required', expired: 'signature expired', invalid: 'signature mismatch' } as const;

export interface ServingOptions {
  /** The secret evidence links are signed with (../evidence/evidence-urls.ts). */
  secret: string;
  /** Where the host is mounted (`/upload`): the signed path is `<prefix>/files/<key>`. */
  prefix: string;
  /** Clock, milliseconds. */
  now: () => number;
}

async function typeOf(path: string): Promise<string | null> {
  const head = Buffer.alloc(IMAGE_SNIFF_BYTES);
  const handle = await open(path, 'r');
  try {
    const { bytesRead } = await handle.read(head, 0, IMAGE_SNIFF_BYTES, 0);
    return detectImageType(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

export async function serveStoredFiles(app: FastifyInstance, store: LocalBlobStore, options: ServingOptions): Promise<void> {
  await app.register(fastifyStatic, {
    root: store.filesDir,
    serve: false,
    index: false,
    dotfiles: 'deny',
    // Set per file below: public for an avatar, private and as short as the link for evidence.
    cacheControl: false,
    setHeaders: (reply: FastifyReply) => {
      const type = sniffed.get(reply.request) ?? null;
      void reply
        .type(type ?? 'application/octet-stream')
        .header('cache-control', cacheControl.get(reply.request) ?? 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cross-origin-resource-policy', 'same-site');
      if (type === null) void reply.header('content-disposition', 'attachment');
    },
  });

  const serveFile = async (
    request: FastifyRequest<{ Params: { '*': string }; Querystring: { e?: unknown; token?: unknown } }>,
    reply: FastifyReply,
  ) => {
    const key = request.params['*'];
    // Not a key at all (`..`, empty segments): nothing to sign, the provider's 404.
    if (!isSafeKey(key)) throw new HostError(404, 'no such file or directory');
    if (isPrivateKey(key)) {
      const nowSeconds = Math.floor(options.now() / 1000);
      const checked = checkLocalSignature(options.secret, `${options.prefix}/files/${key}`, request.query, nowSeconds);
      if (!checked.ok) throw new HostError(403, REFUSED[checked.reason]);
      cacheControl.set(request, `private, max-age=${checked.deadline - nowSeconds}`);
    } else {
      cacheControl.set(request, PUBLIC_CACHE);
    }
    const info = await store.stat(key);
    const path = store.pathOf(key);
    if (info === null || path === null) throw new HostError(404, 'no such file or directory');
    sniffed.set(request, await typeOf(path));
    return reply.sendFile(key);
  };
  app.get('/files/*', { config: { auth: 'public' }, schema: { hide: true }, exposeHeadRoute: false }, serveFile);
  app.head('/files/*', { config: { auth: 'public' }, schema: { hide: true } }, serveFile);
}
