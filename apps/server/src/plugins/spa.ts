import { existsSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { isApiPath } from './errors.ts';

const NOT_BUILT = (dir: string) =>
  `The web app is not built (no index.html in ${dir}). Run "npm run build" at the repository root, then restart.`;

/**
 * The login screen, rendered at build time (apps/web/vite.config.ts, `prerenderLogin`):
 * index.html plus the form's markup and styles, which the app hydrates. Sent for /login
 * only; an older build without it falls back to index.html.
 */
const PRERENDERED: Record<string, string> = { '/login': 'login.html' };

/**
 * Serves the built web app: files under /assets/ with a year-long immutable cache (their
 * names carry a content hash), other existing files as they are, and index.html (never
 * cached) for every other GET path, so deep links and reloads work; /login gets its
 * prerendered page (also never cached). /api paths never reach the SPA: unknown ones
 * answer the 404 envelope.
 */
export default async function spaPlugin(app: FastifyInstance, { webDist }: { webDist: string }): Promise<void> {
  const root = resolve(webDist);
  const built = existsSync(resolve(root, 'index.html'));
  const prerendered = new Map(Object.entries(PRERENDERED).filter(([, file]) => built && existsSync(resolve(root, file))));
  // preCompressed: the build writes .br/.gz beside every text asset; send those when the client accepts them.
  if (built) await app.register(fastifyStatic, { root, serve: false, index: false, preCompressed: true });

  app.get('/*', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (isApiPath(path)) throw new AppError(404, 'errors.notFound', { method: request.method, path });
    if (!built) return reply.code(404).type('text/plain; charset=utf-8').send(NOT_BUILT(root));

    let relative: string;
    try {
      relative = decodeURIComponent(path).replace(/^\/+/, '');
    } catch {
      relative = ''; // undecodable: treat as an app route
    }
    const file = resolve(root, relative);
    const inside = file.startsWith(root + sep);
    if (relative !== '' && inside && existsSync(file) && statSync(file).isFile()) {
      if (relative.startsWith('assets/')) {
        return reply.sendFile(relative, { maxAge: '365d', immutable: true });
      }
      return reply.sendFile(relative, { maxAge: 0 });
    }
    if (relative.startsWith('assets/')) {
      // A missing hashed asset is a real 404, not the app shell.
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    }
    void reply.header('cache-control', 'no-cache');
    return reply.sendFile(prerendered.get(path) ?? 'index.html', { cacheControl: false });
  });
}
