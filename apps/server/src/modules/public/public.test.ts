import type { OrderItem, PublicCertificate, PublicFigures, PublicLinksData, PublicLookupData, PublicPricesData } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';
import { orderBody } from '../../test/orders.ts';
import { maskChatId } from './public.service.ts';

/**
 * The public calls through the HTTP boundary: what a public order shows and
 * never shows, that a private order is no order, exact match only, masking, codes, the
 * rate limits, the link store's URL rule and the published prices.
 */

let ctx: TestContext;
let admin: LoggedIn;
let superAdmin: LoggedIn;
let inspector: LoggedIn;
let shop: LoggedIn;
let publicCheat: OrderItem;
let publicNormal: OrderItem;
let privateCheat: OrderItem;
let ipCounter = 0;
/** Each test calls from its own address, so the per-client limits of one never reach another. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

const PUBLIC_ID = 'Wxid_PubLic_Cheater01';
const PRIVATE_ID = 'wxid_private_cheater02';

async function anon<T>(url: string, ip = freshIp(), lang = 'en-US') {
  const res = await ctx.app.inject({ method: 'GET', url, remoteAddress: ip, headers: { 'accept-language': lang } });
  const body = res.json<{ status: number; msg: string; data: T }>();
  return { http: res.statusCode, headers: res.headers, raw: res.body, ...body };
}

async function createOrder(overrides: Record<string, unknown>): Promise<OrderItem> {
  const res = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
    as: admin,
    payload: orderBody({ userId: shop.id, inspectorId: inspector.id, amount: 4321 }, { mac: 'aa:bb:cc:dd:ee:01', ...overrides }),
  });
  if (res.status !== 200) throw new Error(`order create failed: ${res.msg}`);
  return res.data;
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'admin');
  superAdmin = await loginAs(ctx, 'super_admin');
  inspector = await loginAs(ctx, 'inspector');
  shop = await loginAs(ctx, 'shop');
  publicCheat = await createOrder({ objWechat: PUBLIC_ID, ifPublic: 1, result: 1, objClientName: 'Secret Client Shop' });
  publicNormal = await createOrder({ objWechat: PUBLIC_ID, ifPublic: 1, result: 0, gameName: '王者荣耀' });
  privateCheat = await createOrder({ objWechat: PRIVATE_ID, ifPublic: 0, result: 1 });
  // The same chat ID privately too: only the public ones may come back.
  await createOrder({ objWechat: PUBLIC_ID, ifPublic: 0, result: 3 });
});
afterAll(() => ctx?.destroy());

describe('masking a chat ID', () => {
  it.each([
    ['wxid_a1b2c3d4e5f6g79f', 'wxid_a1***9f'],
    ['wxid_a1b2c39f', 'wxid***9f'],
    ['abcdefgh', 'abc***h'],
    ['abcdef', 'ab***f'],
    ['abc', 'a***'],
    ['a', '***'],
    ['', '***'],
    ['张三李四王五赵六', '张三李***六'],
  ])('%s → %s', (id, masked) => {
    expect(maskChatId(id)).toBe(masked);
  });

  it('always hides at least half of the ID and never tells its length', () => {
    for (let n = 1; n <= 64; n++) {
      const id = 'x'.repeat(n);
      const shown = maskChatId(id).replace('***', '').length;
      expect(shown).toBeLessThanOrEqual(Math.floor(n / 2));
      expect(maskChatId(id)).toContain('***');
    }
  });
});

describe('GET /api/public/lookup', () => {
  it('finds the public orders of exactly that chat ID, case-insensitively and trimmed, with only the public fields', async () => {
    const res = await anon<PublicLookupData>(`/api/public/lookup?chatId=${encodeURIComponent(`  ${PUBLIC_ID.toLowerCase()} `)}`);
    expect(res.http).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    expect(res.data.list.map((o) => o.code).sort()).toEqual([publicCheat.code, publicNormal.code].sort());
    const cheat = res.data.list.find((o) => o.code === publicCheat.code)!;
    expect(cheat).toEqual({
      code: publicCheat.code,
      gameName: publicCheat.gameName,
      result: 1,
      resultLabel: 'Cheating',
      resultClass: 'danger',
      checkedTime: publicCheat.createdTime,
      maskedWechat: 'Wxid_Pu***01',
    });
    // Nothing else of the order is in the answer, not even under another name.
    for (const secret of [PUBLIC_ID, 'Secret Client Shop', 'aa:bb:cc:dd:ee:01', '4321', shop.username, inspector.username, 'Target'])
      expect(res.raw).not.toContain(secret);
  });

  it('answers a private order exactly as no order at all', async () => {
    const privateOne = await anon<PublicLookupData>(`/api/public/lookup?chatId=${PRIVATE_ID}`);
    const nobody = await anon<PublicLookupData>('/api/public/lookup?chatId=wxid_nobody_at_all');
    expect(privateOne.http).toBe(200);
    expect(privateOne.raw).toBe(nobody.raw);
    expect(privateOne.headers['cache-control']).toBe(nobody.headers['cache-control']);
    expect(privateOne.data.list).toEqual([]);
    expect(privateOne.raw).not.toContain(privateCheat.code);
  });

  it('matches exactly: a prefix, a longer ID or a pattern finds nothing', async () => {
    for (const probe of [PUBLIC_ID.slice(0, -1), `${PUBLIC_ID}x`, 'Wxid_PubLic%', 'Wxid_PubLic_Cheater0_', 'wxid_%%%%%%']) {
      const res = await anon<PublicLookupData>(`/api/public/lookup?chatId=${encodeURIComponent(probe)}`);
      expect(res.http, probe).toBe(200);
      expect(res.data.list, probe).toEqual([]);
    }
  });

  it('refuses a short or missing chat ID with a clear 400 in the caller’s language', async () => {
    const short = await anon(`/api/public/lookup?chatId=${encodeURIComponent(' wxid ')}`);
    expect(short.http).toBe(400);
    expect(short.msg).toContain('at least 6 characters');
    const zh = await anon('/api/public/lookup?chatId=abc', freshIp(), 'zh-CN');
    expect(zh.msg).toContain('至少 6 个字符');
    const missing = await anon('/api/public/lookup');
    expect(missing.http).toBe(400);
    expect(missing.msg).toContain('chatId');
    const long = await anon(`/api/public/lookup?chatId=${'x'.repeat(65)}`);
    expect(long.http).toBe(400);
  });

  it('limits a client to 10 look-ups a minute with a 429 in its language, and counts no one else', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await anon(`/api/public/lookup?chatId=wxid_probe_${i}`, ip)).http).toBe(200);
    const over = await anon('/api/public/lookup?chatId=wxid_probe_x', ip, 'zh-CN');
    expect(over.http).toBe(429);
    expect(over.status).toBe(429);
    expect(over.msg).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['cache-control']).toBeUndefined();
    const en = await anon('/api/public/lookup?chatId=wxid_probe_y', ip);
    expect(en.msg).toMatch(/^Too many requests; try again in \d+ seconds$/);
    // Another client, and the signed-in API, are not limited by this one.
    expect((await anon('/api/public/lookup?chatId=wxid_probe_z')).http).toBe(200);
    expect((await anon('/api/public/figures', ip)).http).toBe(200);
    for (let i = 0; i < 12; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/dict/all', remoteAddress: ip, headers: admin.headers });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('GET /api/public/verify/:code', () => {
  it('shows the certificate of a public order, whatever the case of the code', async () => {
    const res = await anon<PublicCertificate>(`/api/public/verify/${publicCheat.code.toLowerCase()}`);
    expect(res.http).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.data).toEqual({
      code: publicCheat.code,
      gameName: publicCheat.gameName,
      result: 1,
      resultLabel: 'Cheating',
      resultClass: 'danger',
      checkedTime: publicCheat.createdTime,
      maskedWechat: 'Wxid_Pu***01',
      serviceName: 'ClearPlay anti-cheat check',
    });
    expect(res.raw).not.toContain('Secret Client Shop');
    const zh = await anon<PublicCertificate>(`/api/public/verify/${publicCheat.code}`, freshIp(), 'zh-CN');
    expect(zh.data.serviceName).toBe('ClearPlay 反作弊检测');
  });

  it('answers a private order’s code exactly as an unknown code', async () => {
    const privateOne = await anon(`/api/public/verify/${privateCheat.code}`);
    const unknown = await anon('/api/public/verify/ABCDEFGH');
    expect(privateOne.http).toBe(404);
    expect(unknown.http).toBe(404);
    expect(privateOne.msg).toBe(`No such certificate: no public check has the code ${privateCheat.code}`);
    expect(privateOne.raw.replace(privateCheat.code, 'X')).toBe(unknown.raw.replace('ABCDEFGH', 'X'));
  });

  it('refuses what cannot be a code with a 400', async () => {
    for (const bad of ['ABC', 'ABCDEFGHJ', 'ABCDEF0O', 'ABCDEFG1', '%25%25%25%25%25%25%25%25']) {
      const res = await anon(`/api/public/verify/${bad}`);
      expect(res.http, bad).toBe(400);
      expect(res.msg, bad).toContain('is not a verification code');
    }
    expect((await anon(`/api/public/verify/${'A'.repeat(40)}`)).http).toBe(400);
  });
});

describe('every public call', () => {
  it('never carries a private order, its code or its chat ID', async () => {
    const ip = freshIp();
    for (const url of ['/api/public/links', '/api/public/prices', '/api/public/figures', `/api/public/lookup?chatId=${PRIVATE_ID}`]) {
      const res = await anon(url, ip);
      expect(res.http, url).toBe(200);
      expect(res.raw, url).not.toContain(privateCheat.code);
      expect(res.raw, url).not.toContain(PRIVATE_ID);
    }
  });

  it('is in the OpenAPI document without security', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json<{ paths: Record<string, { get?: { security?: unknown } }> }>();
    for (const path of [
      '/api/public/lookup',
      '/api/public/verify/{code}',
      '/api/public/links',
      '/api/public/prices',
      '/api/public/figures',
    ]) {
      expect(doc.paths[path]?.get, path).toBeDefined();
      expect(doc.paths[path]?.get?.security, path).toBeUndefined();
    }
  });
});

describe('GET /api/public/figures', () => {
  it('counts every check and the cheaters from the daily counters', async () => {
    const res = await anon<PublicFigures>('/api/public/figures');
    expect(res.data).toEqual({ checks: 4, cheaters: 2 });
    await createOrder({ objWechat: 'wxid_another_one', ifPublic: 0, result: 1 });
    expect((await anon<PublicFigures>('/api/public/figures')).data).toEqual({ checks: 5, cheaters: 3 });
  });
});

describe('the link store', () => {
  const data = (body: Record<string, unknown>) =>
    call<{ id: number }>(ctx, 'POST', '/api/admin/dict/data', { as: superAdmin, payload: body });

  it('accepts only http(s) URLs for the linkstore type, on create and update, naming the field', async () => {
    for (const bad of [
      'javascript:alert(1)',
      'ftp://example.com/',
      'example.com',
      'https://',
      ' https://example.com/',
      'data:text/html,x',
    ]) {
      const res = await data({ typeCode: 'linkstore', label: 'Bad', value: bad });
      expect(res.http, bad).toBe(400);
      expect(res.msg, bad).toContain('http:// or https://');
      expect(res.data, bad).toEqual({ errors: [{ field: 'value', message: res.msg }] });
    }
    const good = await data({ typeCode: 'linkstore', label: 'Good', value: 'http://example.com/tools' });
    expect(good.status).toBe(200);
    const update = await call(ctx, 'PUT', '/api/admin/dict/data', {
      as: superAdmin,
      payload: { id: good.data.id, typeCode: 'linkstore', label: 'Good', value: 'javascript:void(0)' },
    });
    expect(update.http).toBe(400);
    // Other types keep free values.
    expect((await data({ typeCode: 'game', label: 'Not a URL', value: 'not a url' })).status).toBe(200);
  });

  it('groups the enabled links by the tree, with title, URL, description and icon', async () => {
    const group = await data({
      typeCode: 'linkstore',
      label: 'Tools',
      value: 'https://tools.example.com/',
      cssClass: 'icon-tool',
      remark: 'Our tools',
    });
    const child = await data({
      typeCode: 'linkstore',
      label: 'Checker',
      value: 'https://tools.example.com/checker',
      cssClass: 'icon-game',
      remark: 'Run a check',
      parentId: group.data.id,
    });
    await data({ typeCode: 'linkstore', label: 'Hidden', value: 'https://tools.example.com/hidden', parentId: group.data.id, status: 0 });
    await data({ typeCode: 'linkstore', label: 'Grandchild', value: 'https://tools.example.com/deep', parentId: child.data.id });
    const res = await anon<PublicLinksData>('/api/public/links');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const tools = res.data.groups.find((g) => g.id === group.data.id);
    expect(tools).toEqual({
      id: group.data.id,
      title: 'Tools',
      url: 'https://tools.example.com/',
      description: 'Our tools',
      icon: 'icon-tool',
      links: [
        { id: child.data.id, title: 'Checker', url: 'https://tools.example.com/checker', description: 'Run a check', icon: 'icon-game' },
        expect.objectContaining({ title: 'Grandchild', url: 'https://tools.example.com/deep' }),
      ],
    });
    // The seeded links are there, as groups of their own.
    expect(res.data.groups.map((g) => g.url)).toContain('https://gp.qq.com/');
    expect(res.raw).not.toContain('Hidden');
  });
});

describe('GET /api/public/prices', () => {
  it('is empty until staff publish prices, then lists them in order, in fen', async () => {
    expect((await anon<PublicPricesData>('/api/public/prices')).data).toEqual({ list: [] });
    const add = (body: Record<string, unknown>) =>
      call(ctx, 'POST', '/api/admin/dict/data', { as: superAdmin, payload: { typeCode: 'public_price', ...body } });
    for (const bad of ['12.50', '¥50', '-100', '0100', 'abc']) {
      const res = await add({ label: 'Bad', value: bad });
      expect(res.http, bad).toBe(400);
      expect(res.msg, bad).toContain('whole number of fen');
    }
    expect((await add({ label: '作弊', value: '5000', sort: 2, remark: 'per check' })).status).toBe(200);
    expect((await add({ label: '正常', value: '3000', sort: 1 })).status).toBe(200);
    expect((await add({ label: '停用', value: '1', sort: 3, status: 0 })).status).toBe(200);
    const res = await anon<PublicPricesData>('/api/public/prices');
    expect(res.data.list).toEqual([
      { label: '正常', price: 3000, remark: '' },
      { label: '作弊', price: 5000, remark: 'per check' },
    ]);
  });
});
