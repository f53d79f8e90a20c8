import type { OrderImportResult, OrderItem } from '@clearplay/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, loginAs, type LoggedIn, type TestContext } from '../../../test/context.ts';
import { orderBody } from '../../../test/orders.ts';
import { EXPORT_PAGE } from './orders.export.ts';
import { neutraliseFormula } from '@clearplay/contract';

/**
 * GET /admin/order/export through the HTTP boundary, read back with exceljs: the list's
 * filters, headers in the caller's language, dictionary labels, CNY amounts, Beijing times,
 * formula neutralisation, what a shop may see, and paging through more than one page.
 */

let ctx: TestContext;
let admin: LoggedIn;
let inspector: LoggedIn;
let shopA: LoggedIn;
let shopB: LoggedIn;
const created: Record<string, OrderItem> = {};

const EN = [
  'Verification code',
  'Target WeChat ID',
  'Target name',
  'Game',
  'MAC address',
  'Install time',
  'Result',
  'Client shop',
  "Target's shop",
  'Inspector',
  'Amount',
  'Public',
  'MAC changed',
  'Description',
  'Health certificate',
  'Problem proof',
  'Environment proof',
  'Order time',
  'Updated',
];
const col = (header: string) => EN.indexOf(header);

/** A cheating order of shop A for ¥30.00 with the target `exp_x`, with `o` on top. */
const order = (o: Record<string, unknown>) =>
  orderBody({ userId: shopA.id, inspectorId: inspector.id, amount: 3000 }, { objWechat: 'exp_x', ...o });

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'admin');
  inspector = await loginAs(ctx, 'inspector');
  shopA = await loginAs(ctx, 'shop');
  shopB = await loginAs(ctx, 'shop');
  await ctx.db
    .updateTable('users')
    .set({ defaultPrice: 1000, defaultPriceCheat: 3000, defaultPriceNotPass: 500, defaultPriceSuspect: 1500 })
    .where('id', 'in', [shopA.id, shopB.id])
    .execute();
  await ctx.db.updateTable('users').set({ nickname: 'Shop A' }).where('id', '=', shopA.id).execute();
  const specs: Record<string, Record<string, unknown>> = {
    a1: {
      objWechat: 'exp_a1',
      objWechatName: '+SUM(1,2)',
      description: '=HYPERLINK("http://evil.example","click")',
      ifChangedMac: 1,
      certImages: '/upload/files/evidence/cert/202601/0123456789abcdef0123456789abcdef',
    },
    a2: { objWechat: 'exp_a2', result: 0, amount: 1000, ifPublic: 1, description: 'fine' },
    b1: { objWechat: 'exp_b1', userId: shopB.id, result: 3, amount: 1500 },
    b2: {
      objWechat: 'exp_b2',
      userId: shopB.id,
      result: 2,
      amount: 777,
      ifPublic: 1,
      objClientName: '@attacker',
      description: '-1+2',
      proofImages: 'https://img.example.com/p/1.png',
    },
  };
  for (const [name, spec] of Object.entries(specs)) {
    const res = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', { as: admin, payload: order(spec) });
    expect(res.status, res.msg).toBe(200);
    created[name] = res.data;
  }
});
afterAll(() => ctx?.destroy());

interface Exported {
  http: number;
  headers: Record<string, unknown>;
  /** Cell values, row by row (row 1 = the headers), 0-based columns. */
  rows: unknown[][];
  sheet: ExcelJS.Worksheet;
}

async function exportAs(as: LoggedIn, query = '', lang = 'en-US'): Promise<Exported> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/admin/order/export${query}`,
    headers: { ...as.headers, 'accept-language': lang },
  });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const values = row.values as unknown[];
    rows.push(Array.from({ length: EN.length }, (_, i) => values[i + 1] ?? null));
  });
  return { http: res.statusCode, headers: res.headers, rows, sheet };
}

const rowOf = (exported: Exported, wechat: string) => exported.rows.find((r) => r[col('Target WeChat ID')] === wechat);

describe('formula neutralisation', () => {
  it('puts an apostrophe before text a spreadsheet would run', () => {
    for (const text of ['=1+1', '+SUM(A1)', '-2', '@cmd', '\tx', '\rx']) expect(neutraliseFormula(text)).toBe(`'${text}`);
    for (const text of ['plain', 'a=b', '', ' =1', '1-2', "'quoted"]) expect(neutraliseFormula(text)).toBe(text);
  });
});

describe('GET /admin/order/export', () => {
  it('streams every order to staff, with labels in the caller’s language, CNY amounts, Beijing times and neutralised formulas', async () => {
    const exported = await exportAs(admin);
    expect(exported.headers['content-disposition']).toMatch(
      /^attachment; filename="orders-\d{8}-\d{6}\.xlsx"; filename\*=UTF-8''orders-\d{8}-\d{6}\.xlsx$/,
    );
    expect(exported.rows[0]).toEqual(EN);
    expect(exported.rows).toHaveLength(5);

    const a1 = rowOf(exported, 'exp_a1')!;
    expect(a1[col('Verification code')]).toBe(created.a1!.code);
    expect(a1[col('Target name')]).toBe("'+SUM(1,2)");
    expect(a1[col('Description')]).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(a1[col('Result')]).toBe('Cheating');
    expect(a1[col('Public')]).toBe('Private');
    expect(a1[col('MAC changed')]).toBe('Changed');
    expect(a1[col('MAC address')]).toBe('AA-BB-CC-DD-EE-0F');
    expect(a1[col('Client shop')]).toBe('Shop A');
    expect(a1[col('Amount')]).toBe(30);
    // An absolute link under the request's origin, signed for a stated time (decision 0082).
    expect(a1[col('Health certificate')]).toMatch(
      /^http:\/\/localhost(:80)?\/upload\/files\/evidence\/cert\/202601\/0123456789abcdef0123456789abcdef\?e=\d+&token=[\w-]+$/,
    );
    // 03:04:05 UTC is 11:04:05 in Beijing: the cell shows the wall-clock time.
    expect((a1[col('Install time')] as Date).toISOString()).toBe('2026-01-02T11:04:05.000Z');
    const created8 = new Date(Date.parse(created.a1!.createdTime) + 8 * 3_600_000).toISOString();
    expect((a1[col('Order time')] as Date).toISOString()).toBe(created8);

    const a1Row = exported.rows.indexOf(a1) + 1;
    expect(exported.sheet.getRow(a1Row).getCell(col('Amount') + 1).numFmt).toContain('¥');
    expect(exported.sheet.getRow(a1Row).getCell(col('Amount') + 1).numFmt).toContain('0.00');
    expect(exported.sheet.getRow(a1Row).getCell(col('Install time') + 1).numFmt).toBe('yyyy-mm-dd hh:mm:ss');

    const b2 = rowOf(exported, 'exp_b2')!;
    expect(b2[col("Target's shop")]).toBe("'@attacker");
    expect(b2[col('Description')]).toBe("'-1+2");
    expect(b2[col('Amount')]).toBe(7.77);
    expect(b2[col('Result')]).toBe('Not passed');
    expect(b2[col('Public')]).toBe('Public');
    expect(b2[col('Problem proof')]).toBe('https://img.example.com/p/1.png');
  });

  it('writes the headers and the file name in Chinese for a Chinese caller', async () => {
    const exported = await exportAs(admin, '', 'zh-CN');
    expect(exported.rows[0]!.slice(0, 3)).toEqual(['验证码', '目标微信号', '目标名称']);
    expect(exported.sheet.name).toBe('检测记录');
    const a1 = rowOf(exported, 'exp_a1')!;
    expect([a1[col('Result')], a1[col('Public')], a1[col('MAC changed')]]).toEqual(['作弊', '私密', '已更换']);
    expect(exported.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('检测记录-')}`);
  });

  it('applies the list’s filters', async () => {
    const wechats = (e: Exported) => e.rows.slice(1).map((r) => r[col('Target WeChat ID')]);
    expect(wechats(await exportAs(admin, '?result=1'))).toEqual(['exp_a1']);
    expect(wechats(await exportAs(admin, `?userId=${shopB.id}`))).toEqual(['exp_b2', 'exp_b1']);
    expect(wechats(await exportAs(admin, '?ifPublic=1'))).toEqual(['exp_b2', 'exp_a2']);
    expect(wechats(await exportAs(admin, '?objWechat=EXP_A'))).toEqual(['exp_a2', 'exp_a1']);
    expect(wechats(await exportAs(admin, `?code=${created.b1!.code}`))).toEqual(['exp_b1']);
    expect(wechats(await exportAs(admin, '?sortField=amount&sortOrder=ascend'))).toEqual(['exp_b2', 'exp_a2', 'exp_b1', 'exp_a1']);
    expect(wechats(await exportAs(admin, '?orderStartTime=2000-01-01T00:00:00.000Z&orderEndTime=2000-01-02T00:00:00.000Z'))).toEqual([]);
  });

  it('answers a bad filter with the JSON envelope, before any file', async () => {
    const mac = await call(ctx, 'GET', '/api/admin/order/export?mac=zz', { as: admin });
    expect(mac).toMatchObject({ http: 400, status: 400, msg: 'MAC filter "zz" may contain only hexadecimal digits and - : . separators' });
    const range = await call(
      ctx,
      'GET',
      '/api/admin/order/export?orderStartTime=2026-02-01T00:00:00.000Z&orderEndTime=2026-01-01T00:00:00.000Z',
      { as: admin },
    );
    expect(range).toMatchObject({ http: 400, status: 400, msg: 'The order time range ends before it starts' });
    const unknown = await call(ctx, 'GET', '/api/admin/order/export?result=7', { as: admin });
    expect(unknown.status).toBe(400);
  });

  it('gives a shop its own orders in full and other shops’ public orders reduced, never their private ones', async () => {
    const exported = await exportAs(shopA);
    expect(exported.rows.slice(1).map((r) => r[col('Target WeChat ID')])).toEqual(['exp_b2', 'exp_a2', 'exp_a1']);
    const own = rowOf(exported, 'exp_a1')!;
    expect(own[col('Amount')]).toBe(30);
    expect(own[col('Client shop')]).toBe('Shop A');
    const reduced = rowOf(exported, 'exp_b2')!;
    expect(reduced[col('Amount')]).toBeNull();
    expect(reduced[col('Client shop')]).toBeNull();
    expect(reduced[col('Inspector')]).toBeNull();
    expect(reduced[col('Verification code')]).toBe(created.b2!.code);
    // Filtering by another shop shows nothing.
    expect((await exportAs(shopA, `?userId=${shopB.id}`)).rows).toHaveLength(1);
    expect((await exportAs(shopB)).rows.slice(1).map((r) => r[col('Target WeChat ID')])).toEqual(['exp_b2', 'exp_b1', 'exp_a2']);
  });

  it('is refused without the export permission', async () => {
    const res = await call(ctx, 'GET', '/api/admin/order/export', { as: inspector });
    expect(res.status).toBe(403);
  });
});

describe('more than one page', () => {
  it('reads every row once, in the list’s order, across pages of equal times', async () => {
    const n = EXPORT_PAGE * 2 + 37;
    const lines = ["Target WeChat ID,Target name,Game,MAC address,Install time,Result,Client shop,Target's shop"];
    for (let i = 0; i < n; i++)
      lines.push(`page_${i},T,CS2,aabbcc${i.toString(16).padStart(6, '0')},2026-01-02 03:04,${i % 4},${shopB.username},S`);
    const form = new FormData();
    form.append('file', new Blob([lines.join('\n')]), 'many.csv');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const imported = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/order/import',
      headers: { ...admin.headers, 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(imported.json<{ data: OrderImportResult }>().data.imported).toBe(n);

    const exported = await exportAs(admin);
    const codes = exported.rows.slice(1).map((r) => r[col('Verification code')]);
    expect(codes).toHaveLength(n + 4);
    expect(new Set(codes).size).toBe(n + 4);
    const expected = await ctx.db.selectFrom('orders').select('code').orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
    expect(codes).toEqual(expected.map((r) => r.code));

    const byAmount = await exportAs(admin, `?userId=${shopB.id}&sortField=amount&sortOrder=ascend`);
    const amounts = byAmount.rows.slice(1).map((r) => r[col('Amount')] as number);
    expect(amounts).toHaveLength(n + 2);
    expect(amounts).toEqual([...amounts].sort((x, y) => x - y));
    const expectedByAmount = await ctx.db
      .selectFrom('orders')
      .select('code')
      .where('userId', '=', shopB.id)
      .orderBy('amount', 'asc')
      .orderBy('id', 'asc')
      .execute();
    expect(byAmount.rows.slice(1).map((r) => r[col('Verification code')])).toEqual(expectedByAmount.map((r) => r.code));
  });
});
