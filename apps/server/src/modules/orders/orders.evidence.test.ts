import type { OrderItem, OrderProfile } from '@clearplay/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContextWithUsers, type LoggedIn, type TestContext } from '../../test/context.ts';
import { editBody, orderBody } from '../../test/orders.ts';
import { localEvidenceUrls } from '../uploads/evidence/evidence-urls.ts';
import { LocalBlobStore } from '../uploads/stores/local-blob-store.ts';
import { pngBytes } from '../uploads/host/test-support.ts';
import { resolveEvidenceUrlSecret } from '../uploads/uploads.config.ts';

/**
 * Private evidence stays private (decision 0082), tried as an attacker would: a private order's
 * image by its bare path, with no token or with the token of a shop that cannot see the order,
 * with a forged, expired or borrowed signature; and the callers entitled to the order getting
 * links that work for a while, cached privately, in the detail, list, profile and export.
 */

type ListPage = { list: OrderItem[]; total: number };

let ctx: TestContext;
let dataDir: string;
let admin: LoggedIn;
let inspector: LoggedIn;
let shopA: LoggedIn;
let shopB: LoggedIn;
/** Shop A's private order with one stored certificate image. */
let secret: OrderItem;
const KEY = 'evidence/cert/202601/0123456789abcdef0123456789abcdef';
const OTHER_KEY = 'evidence/proof/202601/fedcba9876543210fedcba9876543210';
const BARE = `/upload/files/${KEY}`;
const IMAGE = pngBytes(3000, 5);
const SIGNED = new RegExp(`^/upload/files/${KEY}\\?e=(\\d+)&token=[\\w-]+$`);

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });
const nowSeconds = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  ({
    ctx,
    users: { admin, inspector, shopA, shopB },
  } = await createTestContextWithUsers({ admin: 'admin', inspector: 'inspector', shopA: 'shop', shopB: 'shop' }, { ownDataDir: true }));
  dataDir = ctx.dataDir;
  const store = new LocalBlobStore(dataDir);
  await store.put(KEY, IMAGE);
  await store.put(OTHER_KEY, pngBytes(2000, 6));
  const res = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
    as: admin,
    payload: orderBody(
      { userId: shopA.id, inspectorId: inspector.id, amount: 0 },
      { objWechat: 'ev_secret', ifPublic: 0, certImages: BARE, proofImages: `/upload/files/${OTHER_KEY}` },
    ),
  });
  expect(res.status, res.msg).toBe(200);
  secret = res.data;
});
afterAll(() => ctx?.destroy());

describe('a private order’s evidence, tried from outside', () => {
  it('refuses the bare path with no Authorization header and with the token of a shop that cannot see the order', async () => {
    expect((await call(ctx, 'GET', `/api/admin/order/detail?id=${secret.id}`, { as: shopB })).status).toBe(404);
    for (const headers of [{}, shopB.headers, shopA.headers, admin.headers]) {
      const res = await get(BARE, headers);
      expect([403, 404]).toContain(res.statusCode);
      expect(res.rawPayload.includes(IMAGE.subarray(0, 64))).toBe(false);
      expect(String(res.headers['cache-control'] ?? '')).not.toContain('public');
    }
  });

  it('refuses a forged signature, an expired one and one made for another path, without auth', async () => {
    const key = resolveEvidenceUrlSecret(dataDir, null);
    const deadline = nowSeconds() + 600;
    const forged = localEvidenceUrls('a-secret-that-is-not-the-server-one-0123', 900, 900).sign(BARE, deadline);
    const expired = localEvidenceUrls(key, 900, 900).sign(BARE, nowSeconds() - 1);
    const other = localEvidenceUrls(key, 900, 900).sign(`/upload/files/${OTHER_KEY}`, deadline);
    const borrowed = `${BARE}${other.slice(other.indexOf('?'))}`;
    for (const url of [forged, expired, borrowed, `${BARE}?e=${deadline}&token=${'A'.repeat(43)}`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.rawPayload.includes(IMAGE.subarray(0, 64)), url).toBe(false);
    }
  });

  it('never hands a shop that cannot see the order a signed URL for it: list, detail, profile, ZIP, export', async () => {
    const list = await call<ListPage>(ctx, 'GET', '/api/admin/order/list?pageSize=200', { as: shopB });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.data)).not.toContain(KEY);
    expect((await call(ctx, 'GET', `/api/admin/order/detail?id=${secret.id}`, { as: shopB })).status).toBe(404);
    const profile = await get(`/api/admin/order/profile?id=${secret.id}`, shopB.headers);
    expect(profile.body).not.toContain(KEY);
    expect(JSON.parse(profile.body).status).toBe(404);
    const zip = await get(`/api/admin/order/download?id=${secret.id}`, shopB.headers);
    expect(zip.statusCode).toBe(404);
    expect(zip.rawPayload.includes(IMAGE.subarray(0, 64))).toBe(false);
    const exported = await get('/api/admin/order/export', shopB.headers);
    expect(exported.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    let cells = '';
    workbook.worksheets[0]!.eachRow((row) => (cells += JSON.stringify(row.values)));
    expect(cells).not.toContain(KEY);
  });
});

describe('the people entitled to the order', () => {
  /** Fetches a signed link without any Authorization header: it must serve the image, cached privately for less than its life. */
  async function expectWorking(url: string, lifetime: number): Promise<void> {
    const deadline = Number(/[?&]e=(\d+)/.exec(url)![1]);
    // rounded down to the minute, so that the same minute's answers share their URLs (and the browser's cache)
    expect(deadline - nowSeconds()).toBeGreaterThan(lifetime - 70);
    expect(deadline - nowSeconds()).toBeLessThanOrEqual(lifetime);
    const res = await get(url.replace(/^https?:\/\/[^/]+/, ''));
    expect(res.statusCode, url).toBe(200);
    expect(res.rawPayload.equals(IMAGE)).toBe(true);
    const cache = String(res.headers['cache-control']);
    expect(cache).toMatch(/^private, max-age=\d+$/);
    expect(Number(/max-age=(\d+)/.exec(cache)![1])).toBeLessThanOrEqual(deadline - nowSeconds() + 1);
  }

  it('the owner shop and staff get a working link, signed for 15 minutes, in the detail, the list and the profile', async () => {
    for (const as of [shopA, admin, inspector]) {
      const detail = await call<OrderItem>(ctx, 'GET', `/api/admin/order/detail?id=${secret.id}`, { as });
      expect(detail.data.certImages).toMatch(SIGNED);
      await expectWorking(detail.data.certImages, 900);
      const list = await call<ListPage>(ctx, 'GET', '/api/admin/order/list?objWechat=ev_secret', { as });
      expect(list.data.list[0]!.certImages).toMatch(SIGNED);
      await expectWorking(list.data.list[0]!.certImages, 900);
      const profile = await call<OrderProfile>(ctx, 'GET', `/api/admin/order/profile?id=${secret.id}`, { as });
      await expectWorking(profile.data.order.certImages, 900);
    }
  });

  it('an edit sent back with the signed links stores them bare, and the next read signs them anew', async () => {
    const detail = await call<OrderItem>(ctx, 'GET', `/api/admin/order/detail?id=${secret.id}`, { as: admin });
    const res = await call<OrderItem>(ctx, 'POST', '/api/admin/order/update', {
      as: admin,
      payload: editBody(detail.data, { description: 'edited' }),
    });
    expect(res.status, res.msg).toBe(200);
    expect(res.data.certImages).toMatch(SIGNED);
    const row = await ctx.db
      .selectFrom('orders')
      .select(['certImages', 'proofImages'])
      .where('id', '=', secret.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ certImages: BARE, proofImages: `/upload/files/${OTHER_KEY}` });
  });

  it('the export holds absolute links that work for a day, and says until when and where to sign in after that', async () => {
    const exported = await get('/api/admin/order/export?objWechat=ev_secret', { ...shopA.headers, 'accept-language': 'en-US' });
    expect(exported.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const headers = sheet.getRow(1).values as unknown[];
    const cert = headers.indexOf('Health certificate');
    const link = String(sheet.getRow(2).getCell(cert).value);
    expect(link).toMatch(new RegExp(`^http://localhost(:80)?/upload/files/${KEY}\\?e=\\d+&token=[\\w-]+$`));
    await expectWorking(link, 24 * 3600);
    expect(String(headers.at(-1))).toMatch(
      /^Image links work until \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? \(Beijing time\); after that, sign in at http:\/\/localhost(:80)?\/ to see the images$/,
    );
  });
});

describe('cache-friendly links', () => {
  it('signs until a whole minute, so answers within the same minute hand out the same URL and the browser does not fetch the image again', async () => {
    const first = (await call<OrderItem>(ctx, 'GET', `/api/admin/order/detail?id=${secret.id}`, { as: shopA })).data.certImages;
    const list = (await call<ListPage>(ctx, 'GET', '/api/admin/order/list?objWechat=ev_secret', { as: shopA })).data.list[0]!.certImages;
    expect(Number(/e=(\d+)/.exec(first)![1]) % 60).toBe(0);
    // the same URL, unless the minute turned in between
    if (list !== first) expect(Number(/e=(\d+)/.exec(list)![1]) - Number(/e=(\d+)/.exec(first)![1])).toBe(60);
  });
});

describe('avatars', () => {
  it('stay public: served by their bare path without a signature', async () => {
    const avatar = `avatar/${shopA.id}/0123456789abcdef0123456789abcdef`;
    await new LocalBlobStore(dataDir).put(avatar, IMAGE);
    const res = await get(`/upload/files/${avatar}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(IMAGE)).toBe(true);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
