import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/context.ts';
import { PUBLIC_BASE_PLACEHOLDER, privatePrefixes } from './public-site.ts';

// A build's public pages as apps/web/vite.config.ts writes them (decisions 0068, 0069).
const INDEX = '<!doctype html><title>ClearPlay</title><div id="root"></div>';
const SHELL = '<!doctype html><html data-public><title>ClearPlay</title><div id="root"></div>';
const page = (name: string, locale: string) =>
  `<!doctype html><html lang="${locale}" data-public><title>${name} ${locale}</title>` +
  `<link rel="canonical" href="${PUBLIC_BASE_PLACEHOLDER}/${name}"><div id="root" data-prerendered="${locale}"><form></form></div>`;

let webDist: string;
let ctx: TestContext;
let configured: TestContext;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'clearplay-web-'));
  mkdirSync(join(webDist, 'prerendered'));
  writeFileSync(join(webDist, 'index.html'), INDEX);
  writeFileSync(join(webDist, 'public.html'), SHELL);
  for (const name of ['landing', 'linkstore']) {
    for (const locale of ['zh-CN', 'en-US']) writeFileSync(join(webDist, 'prerendered', `${name}.${locale}.html`), page(name, locale));
  }
  [ctx, configured] = await Promise.all([
    createTestContext({ env: { WEB_DIST: webDist } }),
    createTestContext({ env: { WEB_DIST: webDist, PUBLIC_URL: 'https://check.example.com/cp/' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([ctx.destroy(), configured.destroy()]);
  rmSync(webDist, { recursive: true, force: true });
});

describe('the prerendered public pages', () => {
  it('answer /, /home and /linkstore in the language of ?lang=, zh-CN without one, never cached', async () => {
    const cases = [
      ['/', 'landing zh-CN'],
      ['/home', 'landing zh-CN'],
      ['/?lang=en-US', 'landing en-US'],
      ['/home?x=1&lang=en-US', 'landing en-US'],
      ['/?lang=fr', 'landing zh-CN'],
      ['/linkstore', 'linkstore zh-CN'],
      ['/linkstore?lang=en-US', 'linkstore en-US'],
    ] as const;
    for (const [url, title] of cases) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { host: 'shop.test:8080' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body, url).toContain(`<title>${title}</title>`);
      // The base URL is the request's origin without PUBLIC_URL.
      expect(res.body).toContain(`href="http://shop.test:8080/${title.split(' ')[0]}"`);
      expect(res.body).not.toContain(PUBLIC_BASE_PLACEHOLDER);
    }
  });

  it('put PUBLIC_URL in their absolute links when it is set', async () => {
    const res = await configured.app.inject({ method: 'GET', url: '/linkstore?lang=en-US' });
    expect(res.body).toContain('href="https://check.example.com/cp/linkstore"');
  });

  it('escape a Host header that would break out of the attribute', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/', headers: { host: 'a"><script>x</script>' } });
    expect(res.body).not.toContain('<script>x');
    expect(res.body).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('are sent compressed as the client accepts (brotli, else gzip)', async () => {
    const br = await ctx.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<title>landing zh-CN</title>');
    const gzip = await ctx.app.inject({ method: 'GET', url: '/?lang=en-US', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('<title>landing en-US</title>');
  });

  it('leave the certificate to the public shell and every other route to the app', async () => {
    const verify = await ctx.app.inject({ method: 'GET', url: '/verify/ABCDEFGH' });
    expect(verify.body).toBe(SHELL);
    expect(verify.headers['cache-control']).toBe('no-cache');
    for (const url of ['/login', '/system/user', '/verify', '/verify/A/B', '/linkstore/x']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.body, url).toBe(INDEX);
    }
  });

  it('do not hand out their templates at their file names', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/prerendered/landing.zh-CN.html' });
    expect(res.statusCode).toBe(404);
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('robots.txt keeps crawlers out of the back office and the API, not the public pages', async () => {
    const res = await configured.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    const lines = res.body.split('\n');
    expect(lines).toContain('User-agent: *');
    for (const path of ['/api/', '/dashboard', '/order', '/system', '/visualization', '/exception', '/user', '/redirect']) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain('Sitemap: https://check.example.com/cp/sitemap.xml');
    // No rule shuts out a public page (rules are path prefixes).
    const disallowed = lines.filter((l) => l.startsWith('Disallow: ')).map((l) => l.slice('Disallow: '.length));
    for (const path of ['/', '/home', '/linkstore', '/verify/ABCDEFGH', '/login']) {
      expect(
        disallowed.some((prefix) => path.startsWith(prefix)),
        path,
      ).toBe(false);
    }
    expect(disallowed).toEqual(privatePrefixes());
  });

  it('sitemap.xml lists each public page in both languages with its hreflang alternates', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: 'shop.test' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/xml/);
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      'http://shop.test/',
      'http://shop.test/?lang=en-US',
      'http://shop.test/linkstore',
      'http://shop.test/linkstore?lang=en-US',
    ]);
    expect(res.body).toContain('<xhtml:link rel="alternate" hreflang="en-US" href="http://shop.test/linkstore?lang=en-US"/>');
    expect(res.body.match(/hreflang="zh-CN"/g)).toHaveLength(4);
    // Certificates and /home (the landing page's other address) are not listed.
    expect(res.body).not.toContain('/verify');
    expect(res.body).not.toContain('/home');
  });

  it('answer even when the web app is not built', async () => {
    const unbuilt = await createTestContext({});
    try {
      expect((await unbuilt.app.inject({ method: 'GET', url: '/robots.txt' })).statusCode).toBe(200);
      expect((await unbuilt.app.inject({ method: 'GET', url: '/sitemap.xml' })).statusCode).toBe(200);
    } finally {
      await unbuilt.destroy();
    }
  });
});
