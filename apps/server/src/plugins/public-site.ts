import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { layoutRoutes, routeTable } from '@clearplay/contract';

/**
 * The public pages for search engines and link previews (decisions 0068, 0069): which
 * prerendered page answers which address and language, robots.txt and sitemap.xml. Pure
 * functions; apps/server/src/plugins/spa.ts serves them.
 */

/** The languages of the public pages: zh-CN at the bare address, the other at `?lang=`. */
export const PUBLIC_LOCALES = ['zh-CN', 'en-US'] as const;
export type PublicLocale = (typeof PUBLIC_LOCALES)[number];
export const DEFAULT_PUBLIC_LOCALE: PublicLocale = 'zh-CN';

/**
 * Where the prerendered pages (apps/web/vite.config.ts, `publicHtml`) want the public base
 * URL: PUBLIC_URL, else the request's origin (decision 0051). Keep in step with the web build.
 */
export const PUBLIC_BASE_PLACEHOLDER = '%CLEARPLAY_PUBLIC_BASE%';

/** The prerendered public pages by path (dist/prerendered/<page>.<locale>.html); /home is /'s page. */
export const PRERENDERED_PUBLIC: Readonly<Record<string, { page: string; canonical: string }>> = {
  '/': { page: 'landing', canonical: '/' },
  '/home': { page: 'landing', canonical: '/' },
  '/linkstore': { page: 'linkstore', canonical: '/linkstore' },
};

/** A public page's address: prerendered, or the certificate (public.html renders it). */
export const isPublicPage = (path: string): boolean => path in PRERENDERED_PUBLIC || /^\/verify\/[^/]+$/.test(path);

/** The language a query string asks for (`lang=`), else the default. */
export function publicLocaleOf(query: string): PublicLocale {
  const lang = new URLSearchParams(query).get('lang');
  return PUBLIC_LOCALES.find((locale) => locale === lang) ?? DEFAULT_PUBLIC_LOCALE;
}

/** `path` in `locale`: the default language has no parameter. */
export const localeHref = (path: string, locale: PublicLocale): string =>
  locale === DEFAULT_PUBLIC_LOCALE ? path : `${path}?lang=${locale}`;

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** A prerendered page with the base URL filled in (escaped: without PUBLIC_URL it comes from the Host header). */
export const fillBase = (template: string, base: string): string => template.split(PUBLIC_BASE_PLACEHOLDER).join(escapeXml(base));

/**
 * The back office's top-level paths (first segment of every route inside the default layout),
 * which robots.txt keeps crawlers out of, with the API.
 */
export function privatePrefixes(): string[] {
  const prefixes = new Set<string>(['/api/']);
  for (const route of layoutRoutes(routeTable)) {
    const first = /^\/[^/:*]+/.exec(route.path)?.[0];
    if (first) prefixes.add(first);
  }
  return [...prefixes];
}

export function robotsTxt(base: string): string {
  return [
    '# The public pages (landing, link store, certificates) may be indexed; the back office and the API may not.',
    'User-agent: *',
    'Allow: /',
    ...privatePrefixes().map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n');
}

/**
 * The canonical public pages in both languages, each with its hreflang alternates. Certificates
 * are not listed: a code is only known to whoever holds the paper (and the look-up is exact).
 */
export function sitemapXml(base: string): string {
  const canonical = [...new Set(Object.values(PRERENDERED_PUBLIC).map((entry) => entry.canonical))];
  const urls = canonical.flatMap((path) =>
    PUBLIC_LOCALES.map((locale) => {
      const alternates = PUBLIC_LOCALES.map(
        (alt) => `    <xhtml:link rel="alternate" hreflang="${alt}" href="${escapeXml(base + localeHref(path, alt))}"/>`,
      );
      return [`  <url>`, `    <loc>${escapeXml(base + localeHref(path, locale))}</loc>`, ...alternates, `  </url>`].join('\n');
    }),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** A filled page compressed once per base URL (a handful: PUBLIC_URL, or the hosts the site is reached at). */
export interface FilledPage {
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
}

const CACHE_MAX = 32;

export function filledPages(): (key: string, template: string, base: string) => FilledPage {
  const cache = new Map<string, FilledPage>();
  return (key, template, base) => {
    const id = `${key}\n${base}`;
    const hit = cache.get(id);
    if (hit) return hit;
    const raw = Buffer.from(fillBase(template, base));
    const page = {
      raw,
      gzip: gzipSync(raw, { level: 9 }),
      br: brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }),
    };
    // The Host header is the client's: bounded, oldest out first.
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(id, page);
    return page;
  };
}
