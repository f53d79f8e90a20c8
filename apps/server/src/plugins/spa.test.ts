import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/context.ts';

const INDEX = '<!doctype html><title>ClearPlay</title><div id="root"></div>';
const LOGIN = '<!doctype html><title>ClearPlay</title><div id="root" data-prerendered="zh-CN"><form></form></div>';
let webDist: string;
let ctx: TestContext;
let unbuilt: TestContext;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'clearplay-web-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), INDEX);
  writeFileSync(join(webDist, 'assets', 'index-abc123.js'), 'console.log("app")');
  writeFileSync(join(webDist, 'favicon.ico'), 'icon');
  [ctx, unbuilt] = await Promise.all([
    createTestContext({ env: { WEB_DIST: webDist } }),
    createTestContext({ env: { WEB_DIST: join(webDist, 'does-not-exist') } }),
  ]);
});
afterAll(async () => {
  await Promise.all([ctx.destroy(), unbuilt.destroy()]);
  rmSync(webDist, { recursive: true, force: true });
});

describe('the single-page app', () => {
  it('serves index.html, not cached, for a deep link with a query', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/system/user?redirect=Workplace&x=1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it('serves index.html for the root and /login', async () => {
    for (const url of ['/', '/login']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
    }
  });

  it('serves the prerendered login.html, not cached, for /login when the build has one', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'clearplay-web-'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'login.html'), LOGIN);
    const prerendered = await createTestContext({ env: { WEB_DIST: dist } });
    try {
      for (const url of ['/login', '/login?redirect=Workplace']) {
        const res = await prerendered.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.body).toBe(LOGIN);
      }
      // Every other app route still gets the plain shell.
      for (const url of ['/', '/login/x', '/system/user']) {
        const res = await prerendered.app.inject({ method: 'GET', url });
        expect(res.body).toBe(INDEX);
      }
    } finally {
      await prerendered.destroy();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("app")');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends an asset compressed as the client accepts, with its validator, kept from its first request', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'clearplay-web-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    const script = 'export const a = 1;';
    writeFileSync(join(dist, 'assets', 'app-1.js'), script);
    writeFileSync(join(dist, 'assets', 'app-1.js.br'), brotliCompressSync(script));
    writeFileSync(join(dist, 'assets', 'app-1.js.gz'), gzipSync(script));
    writeFileSync(join(dist, 'assets', 'app-3.js'), 'export const c = 3;');
    const app = await createTestContext({ env: { WEB_DIST: dist } });
    try {
      const br = await app.app.inject({ method: 'GET', url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toBe('accept-encoding');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
      const gz = await app.app.inject({ method: 'GET', url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
      const plain = await app.app.inject({ method: 'GET', url: '/assets/app-1.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);
      // The browser's revalidation of what it has: 304, no body.
      const etag = String(br.headers.etag);
      expect(etag).toMatch(/^W\/"/);
      const again = await app.app.inject({
        method: 'GET',
        url: '/assets/app-1.js',
        headers: { 'accept-encoding': 'br', 'if-none-match': etag },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // One validator for the file and its compressed copies.
      expect(gz.headers.etag).toBe(etag);
      expect(plain.headers.etag).toBe(etag);
      // Nothing is read at start: a chunk, once asked for, stays served even when a new build has removed it (a page loaded before still finds its chunks).
      for (const file of ['app-1.js', 'app-1.js.br', 'app-1.js.gz']) rmSync(join(dist, 'assets', file));
      const kept = await app.app.inject({ method: 'GET', url: '/assets/app-1.js', headers: { 'accept-encoding': 'br' } });
      expect(kept.statusCode).toBe(200);
      expect(brotliDecompressSync(kept.rawPayload).toString()).toBe(script);
      // A build made while the server runs: its new files are found.
      writeFileSync(join(dist, 'assets', 'app-2.js'), 'export const b = 2;');
      const added = await app.app.inject({ method: 'GET', url: '/assets/app-2.js' });
      expect(added.statusCode).toBe(200);
      expect(added.body).toBe('export const b = 2;');
      expect(added.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // Never asked for before a new build removed it: not in memory.
      rmSync(join(dist, 'assets', 'app-3.js'));
      expect((await app.app.inject({ method: 'GET', url: '/assets/app-3.js' })).statusCode).toBe(404);
    } finally {
      await app.destroy();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('answers 404 for a missing asset instead of the app shell', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/gone-123.js' });
    expect(res.statusCode).toBe(404);
  });

  it('serves other files at the root', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('icon');
  });

  it('does not serve files outside the web app', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/..%2f..%2fetc%2fpasswd' });
    expect(res.body).toBe(INDEX);
  });

  it('answers unknown /api paths with the 404 envelope, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await ctx.app.inject({ method, url: '/api/admin/nothing?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: 404, msg: `No such API: ${method} /api/admin/nothing`, data: null });
    }
    const zh = await ctx.app.inject({ method: 'GET', url: '/api/nothing', headers: { 'accept-language': 'zh-CN' } });
    expect(zh.json<{ msg: string }>().msg).toBe('接口不存在：GET /api/nothing');
  });

  it('says the web app is not built when WEB_DIST is missing, and the API still works', async () => {
    const res = await unbuilt.app.inject({ method: 'GET', url: '/login' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toContain('The web app is not built');
    const health = await unbuilt.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });

  it('serves the OpenAPI document with every API route', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/admin/account/avatar',
      '/api/admin/account/ledger',
      '/api/admin/account/logins',
      '/api/admin/account/password',
      '/api/admin/account/profile',
      '/api/admin/account/second-factor',
      '/api/admin/account/second-factor/confirm',
      '/api/admin/account/second-factor/disable',
      '/api/admin/account/second-factor/enrol',
      '/api/admin/account/sessions',
      '/api/admin/account/sessions/end-others',
      '/api/admin/account/subscriptions',
      '/api/admin/account/view-as',
      '/api/admin/account/view-as/end',
      '/api/admin/analysis/orders',
      '/api/admin/announcement/add',
      '/api/admin/announcement/delete',
      '/api/admin/announcement/detail',
      '/api/admin/announcement/list',
      '/api/admin/cancelSubscription',
      '/api/admin/dict/all',
      '/api/admin/dict/data',
      '/api/admin/dict/data/tree/{type}',
      '/api/admin/dict/data/{id}',
      '/api/admin/dict/data/{type}',
      '/api/admin/dict/type',
      '/api/admin/dict/type-data/all',
      '/api/admin/dict/type/list',
      '/api/admin/dict/type/{id}',
      '/api/admin/log/detail',
      '/api/admin/log/list',
      '/api/admin/message/list',
      '/api/admin/message/read',
      '/api/admin/message/unread',
      '/api/admin/monitor',
      '/api/admin/order/create',
      '/api/admin/order/delete',
      '/api/admin/order/detail',
      '/api/admin/order/download',
      '/api/admin/order/export',
      '/api/admin/order/history',
      '/api/admin/order/import',
      '/api/admin/order/import/template',
      '/api/admin/order/list',
      '/api/admin/order/price',
      '/api/admin/order/profile',
      '/api/admin/order/update',
      '/api/admin/role/all',
      '/api/admin/role/create',
      '/api/admin/role/delete',
      '/api/admin/role/list',
      '/api/admin/role/update',
      '/api/admin/setSubscription',
      '/api/admin/upload/token',
      '/api/admin/user/create',
      '/api/admin/user/delete',
      '/api/admin/user/info',
      '/api/admin/user/ledger',
      '/api/admin/user/list',
      '/api/admin/user/login',
      '/api/admin/user/login/enrol',
      '/api/admin/user/login/second-factor',
      '/api/admin/user/logout',
      '/api/admin/user/recharge',
      '/api/admin/user/resetPassword',
      '/api/admin/user/resetSecondFactor',
      '/api/admin/user/search',
      '/api/admin/user/session',
      '/api/admin/user/setUserStatus',
      '/api/admin/user/subscriptions',
      '/api/admin/user/update',
      '/api/admin/visit-stats/overview',
      '/api/admin/workplace',
      '/api/analytics/event',
      '/api/health',
      '/api/menu',
      '/api/public/figures',
      '/api/public/links',
      '/api/public/lookup',
      '/api/public/prices',
      '/api/public/verify/{code}',
      '/api/ready',
      '/api/visit-stats/create',
    ]);
    const ui = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(ui.statusCode).toBeLessThan(400);
  });
});
