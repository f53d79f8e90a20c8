/**
 * The embedded host serves its stored images at `<prefix>/files/<key>` through
 * @fastify/static (ranges, conditional GET, HEAD). What is ours: only safe keys of existing
 * files are served (anything else is the provider's 404), the type comes from the file's
 * magic bytes (keys carry no extension), and the headers that keep an uploaded file inert:
 * `nosniff`, a sandbox CSP, same-site resource policy, and `attachment` for a non-image.
 */
import { open } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HostError } from './host-protocol.ts';
import { detectImageType, IMAGE_SNIFF_BYTES } from './image-type.ts';
import type { LocalBlobStore } from './local-blob-store.ts';

const sniffed = new WeakMap<FastifyRequest, string | null>();

async function typeOf(path: string): Promise<string | null> {
  const head = Buffer.alloc(IMAGE_SNIFF_BYTES);
  const handle = await open(path, 'r');
  const { bytesRead } = await handle.read(head, 0, IMAGE_SNIFF_BYTES, 0).finally(() => handle.close());
  return detectImageType(head.subarray(0, bytesRead));
}

export async function serveStoredFiles(app: FastifyInstance, store: LocalBlobStore): Promise<void> {
  await app.register(fastifyStatic, {
    root: store.filesDir,
    serve: false,
    index: false,
    dotfiles: 'deny',
    // A key is never overwritten, so its bytes never change.
    maxAge: '365d',
    immutable: true,
    setHeaders: (reply: FastifyReply) => {
      const type = sniffed.get(reply.request) ?? null;
      void reply
        .type(type ?? 'application/octet-stream')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cross-origin-resource-policy', 'same-site');
      if (type === null) void reply.header('content-disposition', 'attachment');
    },
  });

  const serveFile = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    const key = request.params['*'];
    const info = await store.stat(key);
    const path = store.pathOf(key);
    if (info === null || path === null) throw new HostError(404, 'no such file or directory');
    sniffed.set(request, await typeOf(path));
    return reply.sendFile(key);
  };
  app.get('/files/*', { config: { auth: 'public' }, schema: { hide: true }, exposeHeadRoute: false }, serveFile);
  app.head('/files/*', { config: { auth: 'public' }, schema: { hide: true } }, serveFile);
}
