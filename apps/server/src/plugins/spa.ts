import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { isApiPath } from './errors.ts';
import { assetCache, sendAsset } from './spa-assets.ts';
import { filledPages, isPublicPage, PRERENDERED_PUBLIC, PUBLIC_LOCALES, publicLocaleOf, robotsTxt, sitemapXml } from './public-site.ts';

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
 * prerendered page (also never cached), the public pages theirs (public.html, prerendered per
 * language for /, /home and /linkstore), and robots.txt and sitemap.xml are written here. /api paths never reach the SPA: unknown ones
 * answer the 404 envelope.
 */
export default async function spaPlugin(
  app: FastifyInstance,
  { webDist, publicUrl = null }: { webDist: string; publicUrl?: string | null },
): Promise<void> {
  const root = resolve(webDist);
  const built = existsSync(resolve(root, 'index.html'));
  const prerendered = new Map(Object.entries(PRERENDERED).filter(([, file]) => built && existsSync(resolve(root, file))));
  // preCompressed: the build writes .br/.gz beside every text asset; send those when the client accepts them.
  if (built) await app.register(fastifyStatic, { root, serve: false, index: false, preCompressed: true });
  // The hashed scripts and stylesheets, each read on its first request, then sent from memory (spa-assets.ts).
  const asset = assetCache(root);

  // The public pages (decisions 0068, 0069): their own entry, public.html, and its prerendered
  // pages per language with the base URL left for this server to fill in (read once at start).
  const publicShell = built && existsSync(resolve(root, 'public.html'));
  const templates = new Map<string, string>();
  for (const { page } of Object.values(PRERENDERED_PUBLIC)) {
    for (const locale of PUBLIC_LOCALES) {
      const file = resolve(root, 'prerendered', `${page}.${locale}.html`);
      if (built && existsSync(file)) templates.set(`${page}.${locale}`, readFileSync(file, 'utf8'));
    }
  }
  const fill = filledPages();
  const baseOf = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;

  app.get('/robots.txt', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) =>
    reply
      .header('cache-control', 'public, max-age=3600')
      .type('text/plain; charset=utf-8')
      .send(robotsTxt(baseOf(request))),
  );
  app.get('/sitemap.xml', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) =>
    reply
      .header('cache-control', 'public, max-age=3600')
      .type('application/xml; charset=utf-8')
      .send(sitemapXml(baseOf(request))),
  );

  /** A prerendered public page in the address's language, compressed as the client accepts. */
  function sendPublicPage(request: FastifyRequest, reply: FastifyReply, template: string, key: string) {
    const page = fill(key, template, baseOf(request));
    const accepts = String(request.headers['accept-encoding'] ?? '');
    void reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(page.br);
    if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(page.gzip);
    return reply.send(page.raw);
  }

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
    if (relative.startsWith('prerendered/')) {
      // The templates behind the public pages (their base URL not filled in): served at their addresses only.
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    }
    const kept = inside ? await asset(relative) : null;
    if (kept) return sendAsset(request, reply, kept);
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
    const publicPage = PRERENDERED_PUBLIC[path];
    if (publicPage) {
      const key = `${publicPage.page}.${publicLocaleOf(request.url.slice(path.length + 1))}`;
      const template = templates.get(key);
      if (template) return sendPublicPage(request, reply, template, key);
    }
    void reply.header('cache-control', 'no-cache');
    if (publicShell && isPublicPage(path)) return reply.sendFile('public.html', { cacheControl: false });
    return reply.sendFile(prerendered.get(path) ?? 'index.html', { cacheControl: false });
  });
}
