import { createServer, type Server } from 'node:http';
import type { OrderItem } from '@clearplay/contract';
import jsQR from 'jsqr';
import JSZip from 'jszip';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContextWithUsers, uploadImage, type LoggedIn, type TestContext } from '../../../test/context.ts';
import { orderBody } from '../../../test/orders.ts';
import { LocalBlobStore } from '../../uploads/stores/local-blob-store.ts';
import { pngBytes } from '../../uploads/host/test-support.ts';
import { sourceOf } from './orders.download.ts';

/**
 * GET /admin/order/download through the HTTP boundary, the ZIP read back with jszip: images
 * from the embedded upload host (uploaded for real) and from the provider's public domain (a
 * local HTTP server stands in for the provider's servers), numbered per kind, missing images
 * listed in the summary, the summary in the caller's language, and who may download what.
 */

/** The text of the QR code in a PNG (jsqr over pngjs's pixels). */
function readQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3000, 9)]);

interface Zip {
  http: number;
  headers: Record<string, unknown>;
  names: string[];
  file: (name: string) => Promise<Buffer>;
  summary: string;
}

async function download(ctx: TestContext, as: LoggedIn, id: number, lang = 'en-US'): Promise<Zip> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/admin/order/download?id=${id}`,
    headers: { ...as.headers, 'accept-language': lang },
  });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  const zip = await JSZip.loadAsync(res.rawPayload);
  const names = Object.keys(zip.files).sort();
  const file = async (name: string) => Buffer.from(await zip.file(name)!.async('uint8array'));
  const summaryBytes = await file('summary.txt');
  expect([...summaryBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return { http: res.statusCode, headers: res.headers, names, file, summary: summaryBytes.subarray(3).toString('utf8') };
}

/** A cheating order for ¥30.00 with the target `dl_target`, with `o` on top. */
const base = ({ userId, inspectorId, ...o }: { userId: number; inspectorId: number } & Record<string, unknown>) =>
  orderBody({ userId, inspectorId, amount: 3000 }, { objWechat: 'dl_target', ...o });

describe('with the embedded upload host', () => {
  let ctx: TestContext;
  let admin: LoggedIn;
  let inspector: LoggedIn;
  let shopA: LoggedIn;
  let shopB: LoggedIn;
  let uploaded: { url: string; bytes: Buffer };
  let privateOrder: OrderItem;
  let publicOrder: OrderItem;

  beforeAll(async () => {
    ({
      ctx,
      users: { admin, inspector, shopA, shopB },
    } = await createTestContextWithUsers({ admin: 'admin', inspector: 'inspector', shopA: 'shop', shopB: 'shop' }, { ownDataDir: true }));
    await ctx.db.updateTable('users').set({ defaultPriceCheat: 3000, nickname: 'Shop A' }).where('id', '=', shopA.id).execute();

    // A real upload through the embedded host, as the browser's uploader does it.
    const bytes = pngBytes(5000, 3);
    uploaded = { url: (await uploadImage(ctx, inspector, 'cert', bytes)).url, bytes };

    const missing = '/upload/files/evidence/cert/202601/ffffffffffffffffffffffffffffffff';
    const created = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
      as: inspector,
      payload: base({
        userId: shopA.id,
        inspectorId: inspector.id,
        certImages: `${uploaded.url},${missing}`,
        proofImages: `https://elsewhere.example/x.png,${uploaded.url}`,
        personCertImages: '',
        description: 'Cheat tool found',
      }),
    });
    expect(created.status, created.msg).toBe(200);
    privateOrder = created.data;
    const pub = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
      as: inspector,
      payload: base({ objWechat: 'dl_public', userId: shopA.id, inspectorId: inspector.id, ifPublic: 1, personCertImages: uploaded.url }),
    });
    expect(pub.status, pub.msg).toBe(200);
    publicOrder = pub.data;
  });
  afterAll(() => ctx?.destroy());

  it('zips the images by kind with a summary that lists the missing ones', async () => {
    const zip = await download(ctx, admin, privateOrder.id, 'zh-CN');
    expect(zip.headers['content-disposition']).toBe(
      `attachment; filename="order-${privateOrder.code}.zip"; filename*=UTF-8''order-${privateOrder.code}.zip`,
    );
    expect(zip.names).toEqual(['summary.txt', 'verify-qr.png', '健康证明/01.png', '问题证明/02.png']);
    expect((await zip.file('健康证明/01.png')).equals(uploaded.bytes)).toBe(true);
    expect((await zip.file('问题证明/02.png')).equals(uploaded.bytes)).toBe(true);
    const s = zip.summary;
    expect(s).toContain(`检测记录 ${privateOrder.code}`);
    expect(s).toContain('目标微信号：dl_target');
    expect(s).toContain('检测结果：作弊');
    expect(s).toContain('客户店铺：Shop A');
    expect(s).toContain('金额：¥30.00');
    expect(s).toContain('安装时间：2026-01-02 11:04:05');
    expect(s).toContain('描述：Cheat tool found');
    expect(s).toContain('健康证明：1 张，在文件夹 健康证明/ 中');
    expect(s).toContain('环境证明：0 张');
    expect(s).toContain('未能包含的图片');
    expect(s).toContain('健康证明/02：/upload/files/evidence/cert/202601/ffffffffffffffffffffffffffffffff（文件不存在）');
    expect(s).toContain('问题证明/01：https://elsewhere.example/x.png（不是本服务图片存储的地址）');
    expect(s).toContain('\r\n');
  });

  it('carries the verification URL (the request’s origin) and a QR code of it that reads back to the same URL', async () => {
    const zip = await download(ctx, shopB, publicOrder.id);
    const url = `http://localhost:80/verify/${publicOrder.code}`;
    expect(zip.summary).toContain(`Verification URL: ${url}\r\n  Its QR code: verify-qr.png\r\n`);
    expect(zip.summary).not.toContain('The record is private');
    expect(readQr(await zip.file('verify-qr.png'))).toBe(url);
    const own = await download(ctx, admin, privateOrder.id, 'zh-CN');
    expect(own.summary).toContain(`验证网址：http://localhost:80/verify/${privateOrder.code}`);
    expect(own.summary).toContain('该记录为私密：公开后证书页面才会显示它。');
    // Behind a proxy (TRUST_PROXY off here): the Host header names the origin.
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/admin/order/download?id=${publicOrder.id}`,
      headers: { ...shopB.headers, host: 'check.example.com' },
    });
    const viaHost = await JSZip.loadAsync(res.rawPayload);
    const png = Buffer.from(await viaHost.file('verify-qr.png')!.async('uint8array'));
    expect(readQr(png)).toBe(`http://check.example.com/verify/${publicOrder.code}`);
  });

  it('names folders and the summary in English for an English caller', async () => {
    const zip = await download(ctx, inspector, privateOrder.id);
    expect(zip.names).toEqual(['health-certificate/01.png', 'problem-proof/02.png', 'summary.txt', 'verify-qr.png']);
    expect(zip.summary).toContain(`Detection record ${privateOrder.code}`);
    expect(zip.summary).toContain('Amount: ¥30.00');
    // Dictionary labels in the caller's language too (decision 0066).
    expect(zip.summary).toContain('Result: Cheating\r\n');
    expect(zip.summary).toContain('Public: Private\r\n');
    expect(zip.summary).toContain('Health certificate: 1 in the folder health-certificate/');
    expect(zip.summary).toContain(
      'health-certificate/02: /upload/files/evidence/cert/202601/ffffffffffffffffffffffffffffffff (the file does not exist)',
    );
  });

  it('gives the owner shop its order, and another shop only public orders, reduced', async () => {
    const own = await download(ctx, shopA, privateOrder.id);
    expect(own.summary).toContain('Amount: ¥30.00');
    expect(own.summary).toContain('Client shop: Shop A');

    const hidden = await call(ctx, 'GET', `/api/admin/order/download?id=${privateOrder.id}`, { as: shopB });
    expect(hidden).toMatchObject({ http: 404, status: 404, msg: `Order #${privateOrder.id} does not exist` });

    const reduced = await download(ctx, shopB, publicOrder.id);
    expect(reduced.names).toEqual(['environment-proof/01.png', 'summary.txt', 'verify-qr.png']);
    expect(reduced.summary).not.toContain('Amount');
    expect(reduced.summary).not.toContain('Client shop');
    expect(reduced.summary).not.toContain('Shop A');
    expect(reduced.summary).not.toContain('Inspector');
    expect(reduced.summary).toContain("Another shop's public record: the amount, the client shop and the inspector are not shown.");
    expect(reduced.summary).toContain('Target WeChat ID: dl_public');
  });

  it('summarizes the target history before the order, as the caller may see it (decision 0070)', async () => {
    const create = async (userId: number, o: { result: number } & Record<string, unknown>) => {
      // The amount is the client shop's price for the result.
      const shop = await ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
      const prices = [shop.defaultPrice, shop.defaultPriceCheat, shop.defaultPriceNotPass, shop.defaultPriceSuspect];
      const res = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
        as: inspector,
        payload: orderBody({ userId, inspectorId: inspector.id, amount: Number(prices[o.result]) }, { ifPublic: 0, ...o }),
      });
      expect(res.status, res.msg).toBe(200);
      return res.data;
    };
    // Earlier: another shop's private catch, a public suspicious record of shop A (the chat ID in
    // upper case), and the machine under two other chat IDs (shop B private, shop A public).
    await create(shopB.id, { objWechat: 'zip_hist', mac: '11:22:33:44:55:01', result: 1 });
    await create(shopA.id, { objWechat: 'ZIP_HIST', mac: '11:22:33:44:55:02', result: 3, ifPublic: 1, gameName: '无畏契约' });
    await create(shopB.id, { objWechat: 'zip_other_b', mac: '11:22:33:44:55:03', result: 0 });
    await create(shopA.id, { objWechat: 'zip_other_a', mac: '11:22:33:44:55:03', result: 0, ifPublic: 1 });
    const order = await create(shopA.id, { objWechat: 'zip_hist', mac: '11:22:33:44:55:03', result: 1 });
    // Later records are not the order's history.
    await create(shopA.id, { objWechat: 'zip_hist', mac: '11:22:33:44:55:04', result: 2, ifPublic: 1 });
    await create(shopB.id, { objWechat: 'zip_other_later', mac: '11:22:33:44:55:03', result: 0, ifPublic: 1 });

    const staff = (await download(ctx, admin, order.id, 'zh-CN')).summary;
    expect(staff).toContain(
      ['目标历史（本单之前）：', '  此微信号更早的检测：作弊 × 1，可疑 × 1', '  最近一次作弊或可疑：2026'].join('\r\n'),
    );
    expect(staff).toMatch(/ 检测结果为“可疑”（无畏契约，MAC 11-22-33-44-55-02）\r\n {2}上次检测的 MAC：11-22-33-44-55-02，与本单不同\r\n/);
    expect(staff).toContain('  这台机器还以 2 个其他微信号出现过：zip_other_a，zip_other_b\r\n');
    expect(staff).not.toContain('失败');
    expect(staff).not.toContain('zip_other_later');
    expect(staff).not.toContain('仅统计本店');

    const own = (await download(ctx, shopA, order.id)).summary;
    expect(own).toContain('Target history (before this order):\r\n  Earlier records of this chat ID: Suspicious × 1\r\n');
    expect(own).toContain('  Latest cheating or suspicious result: "Suspicious" on ');
    expect(own).toContain("  MAC of the latest earlier record: 11-22-33-44-55-02, not this order's\r\n");
    expect(own).toContain('  This machine was also seen under 1 other chat ID(s): zip_other_a\r\n');
    expect(own).toContain("  Counted from your shop's records and the public ones.\r\n");
    expect(own).not.toContain('作弊 ×');
    expect(own).not.toContain('zip_other_b');

    // A first record: nothing earlier.
    const first = (await download(ctx, inspector, privateOrder.id)).summary;
    expect(first).toContain('Target history (before this order):\r\n  Earlier records of this chat ID: none\r\n\r\n');
    expect(first).not.toContain('MAC of the latest earlier record');
  });

  it('answers an unknown order with the JSON envelope', async () => {
    const res = await call(ctx, 'GET', '/api/admin/order/download?id=99999999', { as: admin });
    expect(res).toMatchObject({ http: 404, status: 404 });
    const bad = await call(ctx, 'GET', '/api/admin/order/download?id=abc', { as: admin });
    expect(bad.status).toBe(400);
  });

  it('never reads a path outside the upload folder', () => {
    const store = new LocalBlobStore('/data');
    expect(sourceOf('/upload/files/../../etc/passwd', store, 'app.example')).toEqual({ foreign: true });
    expect(sourceOf('/upload/files/%2e%2e/%2e%2e/etc/passwd', store, 'app.example')).toEqual({ foreign: true });
    expect(sourceOf('/etc/passwd', store, 'app.example')).toEqual({ foreign: true });
    expect(sourceOf('file:///etc/passwd', store, 'app.example')).toEqual({ foreign: true });
    expect(sourceOf('http://169.254.169.254/latest/meta-data', store, 'app.example')).toEqual({ foreign: true });
    expect(sourceOf('https://app.example/upload/files/evidence/cert/202601/ab', store, 'app.example')).toEqual({
      key: 'evidence/cert/202601/ab',
    });
    expect(sourceOf('https://elsewhere.example/upload/files/evidence/cert/202601/ab', store, 'app.example')).toEqual({ foreign: true });
  });
});

describe('with the cloud provider', () => {
  let ctx: TestContext;
  let server: Server;
  let origin: string;
  let admin: LoggedIn;
  let shop: LoggedIn;

  beforeAll(async () => {
    // Stands in for the provider's private image domain: only a signed download URL is answered.
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://domain');
      if (!/^\d+$/.test(url.searchParams.get('e') ?? '') || !(url.searchParams.get('token') ?? '').startsWith('ak-test:')) {
        res.writeHead(401).end('{"error":"bad token"}');
        return;
      }
      req.url = url.pathname;
      if (req.url === '/evidence/cert/ok') {
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
      } else if (req.url === '/evidence/proof/shot.webp') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from('not an image, but a file'));
      } else if (req.url === '/evidence/cert/moved') {
        res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      } else {
        res.writeHead(404).end('no such file');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    origin = `http://127.0.0.1:${address.port}`;
    ({
      ctx,
      users: { admin, shop },
    } = await createTestContextWithUsers(
      { admin: 'admin', shop: 'shop' },
      {
        ownDataDir: true,
        env: { QINIU_ACCESS_KEY: 'ak-test', QINIU_SECRET_KEY: 'sk-test', QINIU_BUCKET: 'evidence', QINIU_DOMAIN: origin },
      },
    ));
  });
  afterAll(async () => {
    await ctx?.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches the images from the provider’s domain and lists what it could not get', async () => {
    const created = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
      as: admin,
      payload: base({
        userId: shop.id,
        inspectorId: admin.id,
        amount: 0,
        certImages: `${origin}/evidence/cert/ok,${origin}/evidence/cert/gone,${origin}/evidence/cert/moved`,
        proofImages: `${origin}/evidence/proof/shot.webp?v=1`,
      }),
    });
    expect(created.status, created.msg).toBe(200);
    const zip = await download(ctx, admin, created.data.id);
    expect(zip.names).toEqual(['health-certificate/01.jpg', 'problem-proof/01.webp', 'summary.txt', 'verify-qr.png']);
    expect((await zip.file('health-certificate/01.jpg')).equals(JPEG)).toBe(true);
    expect(zip.summary).toContain(`health-certificate/02: ${origin}/evidence/cert/gone (the image server answered HTTP 404)`);
    expect(zip.summary).toContain(`health-certificate/03: ${origin}/evidence/cert/moved (it could not be read)`);
    expect(zip.summary).toContain('Amount: ¥0.00');
  });
});
