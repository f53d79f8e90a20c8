// Over 400 lines: the import's behaviour end to end (csv and xlsx, every rejection reason, limits, batches, rollback) on one seeded database.
import { PassThrough, Readable } from 'node:stream';
import type { OrderImportResult, OrderItem } from '@clearplay/contract';
import ExcelJS from 'exceljs';
import { ZipFile } from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestContext,
  flushLogs,
  importFile as uploadSheet,
  loginAs,
  multipartForm,
  type LoggedIn,
  type TestContext,
} from '../../../test/context.ts';
import { parseAmount, parseSheetTime } from './check.ts';
import { readSheet } from './read.ts';

/**
 * POST /admin/order/import and its template, through the HTTP boundary: every kind of bad
 * row and bad file, all-or-nothing versus keepValid, labels and values, Excel date cells and
 * text dates, csv with a byte order mark, English and Chinese headers, and the ledger.
 */

let ctx: TestContext;
let admin: LoggedIn;
let inspector: LoggedIn;
let shop: LoggedIn;
let other: LoggedIn;
let twinA: LoggedIn;

const PRICES = { defaultPrice: 1000, defaultPriceCheat: 3000, defaultPriceNotPass: 500, defaultPriceSuspect: 1500 };
const priceOf = (result: number) => [1000, 3000, 500, 1500][result] as number;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'admin');
  inspector = await loginAs(ctx, 'inspector');
  shop = await loginAs(ctx, 'shop');
  other = await loginAs(ctx, 'shop');
  twinA = await loginAs(ctx, 'shop');
  const twinB = await loginAs(ctx, 'shop');
  await ctx.db.updateTable('users').set(PRICES).where('id', 'in', [shop.id, other.id, twinA.id, twinB.id]).execute();
  await ctx.db.updateTable('users').set({ nickname: 'Golden Dragon' }).where('id', '=', shop.id).execute();
  await ctx.db.updateTable('users').set({ nickname: 'Twin Shop' }).where('id', 'in', [twinA.id, twinB.id]).execute();
  await ctx.db.updateTable('users').set({ ifPublic: 1 }).where('id', '=', other.id).execute();
});
afterAll(() => ctx?.destroy());

const EN = [
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
];
const ZH = [
  '目标微信号',
  '目标名称',
  '游戏',
  'MAC 地址',
  '安装时间',
  '检测结果',
  '客户店铺',
  '目标所属店铺',
  '检测员',
  '金额',
  '是否公开',
  '是否改过 MAC',
  '描述',
];

type Row = (string | number | Date | null)[];

async function xlsx(rows: Row[], sheetName = 'Orders'): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * The same workbook of text cells (one "Orders" sheet, shared strings, styles) written by exceljs's
 * streaming writer: a few times faster than building the whole model for tens of thousands of
 * rows, where only the number of rows matters to the test.
 */
async function xlsxStreamed(rows: Row[]): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (part: Buffer) => parts.push(part));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet('Orders');
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(parts);
}

const csvCell = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csv = (rows: (string | number | null)[][], bom = false) =>
  Buffer.from(`${bom ? '\uFEFF' : ''}${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`, 'utf8');

interface Answer<T> {
  http: number;
  status: number;
  msg: string;
  data: T;
}

/** The browser's upload (a multipart/form-data body with the file in the field "file"), its envelope. */
async function importFile(
  file: Buffer,
  name: string,
  as: LoggedIn,
  options: { keepValid?: boolean; lang?: string; field?: string } = {},
): Promise<Answer<OrderImportResult>> {
  const res = await uploadSheet(ctx, as, file, name, options);
  expect(res.statusCode, res.body).toBeLessThan(500);
  const body = res.json<{ status: number; msg: string; data: OrderImportResult }>();
  return { http: res.statusCode, ...body };
}

async function ordersOf(prefix: string, as: LoggedIn = admin): Promise<OrderItem[]> {
  const res = await call<{ list: OrderItem[]; total: number }>(
    ctx,
    'GET',
    `/api/admin/order/list?pageSize=200&objWechat=${encodeURIComponent(prefix)}`,
    { as },
  );
  expect(res.status).toBe(200);
  return res.data.list;
}

/** The shop's balance, and the sum of its ledger entries (they must agree). */
async function balanceOf(userId: number): Promise<{ balance: number; entries: number; count: number }> {
  const user = await ctx.db.selectFrom('users').select('balance').where('id', '=', userId).executeTakeFirstOrThrow();
  const sum = await ctx.db
    .selectFrom('ledgerEntries')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number | string>('amount'), eb.lit(0)).as('total'),
      eb.fn.countAll<number | string>().as('n'),
    ])
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return { balance: Number(user.balance), entries: Number(sum.total), count: Number(sum.n) };
}

/** A csv's records as the import reads them: the header row, then each row's cells. */
async function csvRecords(text: string): Promise<unknown[][]> {
  const sheet = await readSheet(Buffer.from(text, 'utf8'));
  const records: unknown[][] = [sheet.headers];
  for await (const row of sheet.rows) records.push(row.cells);
  return records;
}

/** Wall-clock Beijing time as an Excel date cell holds it (exceljs: the UTC fields). */
const excelDate = (y: number, m: number, d: number, h: number, min: number, s = 0) => new Date(Date.UTC(y, m - 1, d, h, min, s));

describe('the template', () => {
  it('is an xlsx with the headers in the caller’s language and an instructions sheet', async () => {
    for (const [lang, headers, name] of [
      ['zh-CN', ZH, '订单导入模板.xlsx'],
      ['en-US', EN, 'order-import-template.xlsx'],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/order/import/template',
        headers: { ...inspector.headers, 'accept-language': lang },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml.sheet');
      expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="order-import-template\.xlsx"/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const [sheet, help] = workbook.worksheets;
      expect((sheet!.getRow(1).values as unknown[]).slice(1)).toEqual(headers);
      expect(sheet!.actualRowCount).toBe(1);
      const helpText = JSON.stringify(help!.getSheetValues());
      expect(helpText).toContain(lang === 'zh-CN' ? '作弊' : 'cheating');
      expect(helpText).toContain('CS2');
    }
  });

  it('is refused without the import permission', async () => {
    const res = await call(ctx, 'GET', '/api/admin/order/import/template', { as: shop });
    expect(res.status).toBe(403);
  });

  it('filled in and sent back, imports', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/order/import/template',
      headers: { ...inspector.headers, 'accept-language': 'zh-CN' },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    workbook.worksheets[0]!.addRow([
      'tpl_wx',
      '模板',
      '和平精英',
      'aa-bb-cc-00-00-01',
      excelDate(2026, 1, 2, 8, 0),
      '可疑',
      shop.username,
      '某店',
      null,
      null,
      null,
      null,
      '来自模板',
    ]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const answer = await importFile(file, '模板.xlsx', inspector, { lang: 'zh-CN' });
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data).toEqual({ total: 1, imported: 1, rejected: [], keepValid: false });
    const [order] = await ordersOf('tpl_wx');
    expect(order).toMatchObject({
      result: 3,
      amount: 1500,
      userId: shop.id,
      inspectorId: inspector.id,
      installationTime: '2026-01-02T00:00:00.000Z',
      description: '来自模板',
    });
  });
});

describe('reading cells', () => {
  it('understands labels, values and English words, date cells and text dates, and charges the ledger', async () => {
    const before = await balanceOf(shop.id);
    const file = await xlsx([
      EN,
      [
        'lab_1',
        'One',
        'CS2',
        'aa:bb:cc:dd:ee:01',
        excelDate(2026, 1, 2, 11, 4, 5),
        '作弊',
        shop.username,
        'Their shop',
        '',
        '',
        '公开',
        '已更换',
        'labels',
      ],
      [
        'lab_2',
        'Two',
        'CS2',
        'aabbccddee02',
        '2026/1/2 3:04:05',
        'normal',
        'Golden Dragon',
        'Their shop',
        inspector.username,
        '',
        'private',
        'no',
        'English words, nickname',
      ],
      [
        'lab_3',
        'Three',
        'CS2',
        'AA-BB-CC-DD-EE-03',
        '2026-01-02T03:04:05Z',
        2,
        shop.username.toUpperCase(),
        'Their shop',
        '',
        '',
        1,
        0,
        'values',
      ],
      [
        'lab_4',
        'Four',
        'CS2',
        'aabb.ccdd.ee04',
        '2026-01-02 03:04',
        'Suspicious',
        shop.username,
        'Their shop',
        '',
        '¥15.00',
        'Public',
        'Changed',
        'amount in CNY',
      ],
      ['lab_5', 'Five', '王者荣耀', 1122334405, '2026年1月2日 3时4分', '3', shop.username, 'Their shop', '', 15, null, null, null],
    ]);
    const answer = await importFile(file, 'orders.xlsx', inspector);
    expect(answer.status, JSON.stringify(answer)).toBe(200);
    expect(answer.data).toEqual({ total: 5, imported: 5, rejected: [], keepValid: false, history: { macChanged: 2, knownMachine: 0 } });

    const byWechat = new Map((await ordersOf('lab_')).map((o) => [o.objWechat, o]));
    expect(byWechat.get('lab_1')).toMatchObject({
      result: 1,
      ifPublic: 1,
      ifChangedMac: 1,
      mac: 'AA-BB-CC-DD-EE-01',
      installationTime: '2026-01-02T03:04:05.000Z',
      amount: 3000,
      inspectorId: inspector.id,
      userId: shop.id,
    });
    expect(byWechat.get('lab_2')).toMatchObject({
      result: 0,
      ifPublic: 0,
      ifChangedMac: 0,
      installationTime: '2026-01-01T19:04:05.000Z',
      amount: 1000,
    });
    expect(byWechat.get('lab_3')).toMatchObject({
      result: 2,
      ifPublic: 1,
      ifChangedMac: 0,
      installationTime: '2026-01-02T03:04:05.000Z',
      amount: 500,
    });
    expect(byWechat.get('lab_4')).toMatchObject({
      result: 3,
      ifPublic: 1,
      ifChangedMac: 1,
      installationTime: '2026-01-01T19:04:00.000Z',
      amount: 1500,
      mac: 'AA-BB-CC-DD-EE-04',
    });
    // No public flag: the shop's default (private); install time in Chinese.
    // A MAC typed as a number lost its leading zeros to the spreadsheet: they come back.
    expect(byWechat.get('lab_5')).toMatchObject({
      result: 3,
      ifPublic: 0,
      gameName: '王者荣耀',
      mac: '00-11-22-33-44-05',
      installationTime: '2026-01-01T19:04:00.000Z',
      amount: 1500,
    });

    const after = await balanceOf(shop.id);
    expect(after.balance).toBe(before.balance - (3000 + 1000 + 500 + 1500 + 1500));
    expect(after.count).toBe(before.count + 5);
    expect(after.balance).toBe(after.entries);
  });

  it('reads a UTF-8 csv with a byte order mark, Chinese headers and quoted fields', async () => {
    const file = csv(
      [
        ZH,
        [
          'csv_1',
          '带,逗号',
          'CS2',
          'aa-bb-cc-00-00-11',
          '2026-01-02 03:04:05',
          '未通过',
          shop.username,
          '店',
          '',
          '',
          '私密',
          '未更换',
          'line one\nline "two"',
        ],
        ['csv_2', 'Plain', 'CS2', 'aa-bb-cc-00-00-12', '2026/01/02', '正常', shop.username, '店', '', '10', '', '', ''],
      ],
      true,
    );
    const answer = await importFile(file, 'orders.csv', inspector, { lang: 'zh-CN' });
    expect(answer.status, JSON.stringify(answer)).toBe(200);
    expect(answer.data.imported).toBe(2);
    const byWechat = new Map((await ordersOf('csv_')).map((o) => [o.objWechat, o]));
    expect(byWechat.get('csv_1')).toMatchObject({
      objWechatName: '带,逗号',
      description: 'line one\nline "two"',
      result: 2,
      ifPublic: 0,
      installationTime: '2026-01-01T19:04:05.000Z',
    });
    expect(byWechat.get('csv_2')).toMatchObject({ result: 0, amount: 1000, installationTime: '2026-01-01T16:00:00.000Z' });
  });

  it('takes a real browser-style upload over HTTP', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const form = new FormData();
    form.append(
      'file',
      new Blob([csv([EN, ['http_1', 'x', 'CS2', 'aa-bb-cc-00-00-21', '2026-01-02 03:04', '0', shop.username, 'y', '', '', '', '', '']])]),
      'real.csv',
    );
    const res = await fetch(`${address}/api/admin/order/import?keepValid=false`, {
      method: 'POST',
      body: form,
      headers: inspector.headers,
    });
    const body = (await res.json()) as { status: number; data: OrderImportResult };
    expect(body).toMatchObject({ status: 200, data: { total: 1, imported: 1, rejected: [] } });
  });

  it('reads a csv without a byte order mark, English headers in any case, extra columns ignored', async () => {
    const headers = ['notes', ...EN.map((h) => h.toUpperCase())];
    const file = csv([
      headers,
      ['ignored', 'csv_3', 'x', 'CS2', 'aa-bb-cc-00-00-13', '2026-01-02 03:04', '1', shop.username, 'y', '', '', '', '', ''],
    ]);
    const answer = await importFile(file, 'orders.csv', inspector);
    expect(answer.data).toEqual({ total: 1, imported: 1, rejected: [], keepValid: false });
  });

  it('parses amounts and times as documented', () => {
    expect(parseAmount('¥12.50')).toBe(1250);
    expect(parseAmount('12.5')).toBe(1250);
    expect(parseAmount(12.5)).toBe(1250);
    expect(parseAmount('1,200.00')).toBe(120000);
    expect(parseAmount('12元')).toBe(1200);
    expect(parseAmount('')).toBeUndefined();
    expect(parseAmount('12,5')).toBeNull();
    expect(parseAmount('-1')).toBeNull();
    expect(parseAmount(1.005)).toBeNull();
    expect(parseAmount('abc')).toBeNull();
    expect(parseSheetTime('2026-01-02 03:04')).toBe(Date.UTC(2026, 0, 1, 19, 4));
    expect(parseSheetTime('2026/1/2 3:04:05')).toBe(Date.UTC(2026, 0, 1, 19, 4, 5));
    expect(parseSheetTime('2026-01-02T03:04:05+08:00')).toBe(Date.UTC(2026, 0, 1, 19, 4, 5));
    expect(parseSheetTime('2026-01-02T03:04:05Z')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(parseSheetTime(excelDate(2026, 1, 2, 8, 0))).toBe(Date.UTC(2026, 0, 2, 0, 0));
    expect(parseSheetTime(46024.5)).toBe(Date.UTC(2026, 0, 2, 4, 0));
    expect(parseSheetTime('2026-02-30')).toBeNull();
    expect(parseSheetTime('2026-13-01 00:00')).toBeNull();
    expect(parseSheetTime('yesterday')).toBeNull();
  });

  it('splits csv records as RFC 4180 says', async () => {
    expect(await csvRecords('a,"b,c","d""e"\r\n"multi\nline",,x\n')).toEqual([
      ['a', 'b,c', 'd"e'],
      ['multi\nline', '', 'x'],
    ]);
    expect(await csvRecords('a,b\rc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('reads a csv as Excel and other tools write it: byte order mark, CRLF in a quoted cell, doubled quotes, mixed line ends, ragged rows', async () => {
    expect(await csvRecords('\uFEFFa,b\r\n"x\r\ny","say ""hi"""\r\n""\r\n')).toEqual([['a', 'b'], ['x\r\ny', 'say "hi"'], ['']]);
    expect(await csvRecords('a,b\nc,d\r\ne,f\rg,h')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
    expect(await csvRecords('a,b,c\r\n1\r\n1,2,3,4\r\n')).toEqual([['a', 'b', 'c'], ['1'], ['1', '2', '3', '4']]);
    // A quote inside an unquoted cell is text, as Excel reads it.
    expect(await csvRecords('a,b\r\nsay "hi",x\r\n')).toEqual([
      ['a', 'b'],
      ['say "hi"', 'x'],
    ]);
  });

  it('numbers csv rows as a spreadsheet does: a cell over two lines is one row, an empty line is a row', async () => {
    const sheet = await readSheet(Buffer.from('a,b\r\n"one\r\ncell",x\r\n\r\nthird,y\r\n'));
    const rows: { row: number; cells: unknown[] }[] = [];
    for await (const row of sheet.rows) rows.push(row);
    expect(rows).toEqual([
      { row: 2, cells: ['one\r\ncell', 'x'] },
      { row: 3, cells: [''] },
      { row: 4, cells: ['third', 'y'] },
    ]);
    await expect(readSheet(Buffer.from('a,b\r\n"one\r\ncell",x\r\n"open,y\r\n'))).rejects.toMatchObject({
      key: 'orderImport.csvQuote',
      params: { row: 3 },
    });
  });

  it('keeps Chinese text whole across the csv reader’s read boundaries', async () => {
    // Read in 64 KB slices: the 21,845th 中 (bytes 65,534 to 65,536) straddles the first boundary.
    const long = '中'.repeat(30_000);
    expect(await csvRecords(`a\n${long},文字\n`)).toEqual([['a'], [long, '文字']]);
  });

  it('hands over the first csv rows before it has read a large file to its end', async () => {
    const line = `${'x'.repeat(90)},y\r\n`;
    const file = Buffer.from(`a,b\r\n${line.repeat(30_000)}"never closed,z\r\n`);
    expect(file.length).toBeGreaterThan(2_000_000);
    const sheet = await readSheet(file);
    expect(sheet.headers).toEqual(['a', 'b']);
    const rows = sheet.rows[Symbol.asyncIterator]();
    expect((await rows.next()).value).toEqual({ row: 2, cells: ['x'.repeat(90), 'y'] });
    // The open quote at the end is met when the reading gets there.
    const rest = async () => {
      for (let next = await rows.next(); next.done !== true; next = await rows.next());
    };
    await expect(rest()).rejects.toMatchObject({ key: 'orderImport.csvQuote', params: { row: 30_002 } });
  });
});

describe('bad rows', () => {
  const good = (wx: string, mac: string): Row => [
    wx,
    'Good',
    'CS2',
    mac,
    '2026-01-02 03:04',
    'cheating',
    shop.username,
    'Shop',
    '',
    '',
    '',
    '',
    '',
  ];
  const rows = (): Row[] => [
    EN,
    ['', 'No chat id', 'CS2', 'aa-bb-cc-00-01-01', '2026-01-02 03:04', 'normal', shop.username, 'Shop', '', '', '', '', ''],
    ['bad_mac', 'Bad MAC', 'CS2', 'xx', '2026-01-02 03:04', 'normal', shop.username, 'Shop', '', '', '', '', ''],
    ['bad_result', 'Bad result', 'CS2', 'aa-bb-cc-00-01-03', '2026-01-02 03:04', 'maybe', shop.username, 'Shop', '', '', '', '', ''],
    ['bad_shop', 'Unknown shop', 'CS2', 'aa-bb-cc-00-01-04', '2026-01-02 03:04', 'normal', 'nobody_at_all', 'Shop', '', '', '', '', ''],
    ['bad_date', 'Bad date', 'CS2', 'aa-bb-cc-00-01-05', '2026-13-45 99:99', 'normal', shop.username, 'Shop', '', '', '', '', ''],
    good('bad_keep_1', 'aa-bb-cc-00-01-06'),
    ['bad_many', '', 'Tetris', 'zz', 'never', '9', 'Twin Shop', '', 'nobody_inspects', 'twelve', 'maybe', 'perhaps', ''],
    [
      'bad_amount',
      'Wrong amount',
      'CS2',
      'aa-bb-cc-00-01-08',
      '2026-01-02 03:04',
      'normal',
      shop.username,
      'Shop',
      '',
      '¥1.00',
      '',
      '',
      '',
    ],
    ['bad_admin', 'Admin client', 'CS2', 'aa-bb-cc-00-01-09', '2026-01-02 03:04', 'normal', admin.username, 'Shop', '', '', '', '', ''],
    [
      'bad_inspector',
      'Someone else',
      'CS2',
      'aa-bb-cc-00-01-10',
      '2026-01-02 03:04',
      'normal',
      shop.username,
      'Shop',
      admin.username,
      '',
      '',
      '',
      '',
    ],
    [null, null, null, null, null, null, null, null, null, null, null, null, null],
    good('bad_keep_2', 'aa-bb-cc-00-01-12'),
  ];

  it('reports every rejected row with its row number and every reason, and writes nothing', async () => {
    const before = await balanceOf(shop.id);
    const answer = await importFile(await xlsx(rows()), 'bad.xlsx', inspector);
    expect(answer.status).toBe(200);
    const { data } = answer;
    expect(data.total).toBe(11);
    expect(data.imported).toBe(0);
    expect(data.keepValid).toBe(false);
    const byRow = new Map(data.rejected.map((r) => [r.row, r]));
    expect([...byRow.keys()]).toEqual([2, 3, 4, 5, 6, 8, 9, 10, 11]);
    expect(byRow.get(2)!.reasons).toEqual(['Target WeChat ID: cannot be empty']);
    expect(byRow.get(3)!.reasons).toEqual([
      'MAC address: MAC address "xx" is not valid: use AA-BB-CC-DD-EE-FF, aa:bb:cc:dd:ee:ff or aabbccddeeff',
    ]);
    expect(byRow.get(4)!.reasons).toHaveLength(1);
    expect(byRow.get(4)!.reasons[0]).toMatch(
      /^Result: "maybe" is not one of 正常, 作弊, 未通过, 可疑, normal, cheating, failed, suspicious/,
    );
    expect(byRow.get(5)!.reasons).toEqual(['Client shop: No user has the username or nickname "nobody_at_all"']);
    expect(byRow.get(6)!.reasons).toEqual(['Install time: "2026-13-45 99:99" is not a date and time such as 2026-01-02 15:04']);
    const many = byRow.get(8)!.reasons;
    expect(many).toEqual([
      'Target name: cannot be empty',
      'Game: Game "Tetris" is not an enabled value of the game dictionary',
      'MAC address: MAC address "zz" is not valid: use AA-BB-CC-DD-EE-FF, aa:bb:cc:dd:ee:ff or aabbccddeeff',
      'Install time: "never" is not a date and time such as 2026-01-02 15:04',
      expect.stringMatching(/^Result: "9" is not one of /),
      'Client shop: "Twin Shop" is the nickname of 2 users; use the username',
      "Target's shop: cannot be empty",
      'Inspector: No user has the username or nickname "nobody_inspects"',
      'Amount: "twelve" is not an amount in CNY such as 12.50',
      expect.stringMatching(/^Public: "maybe" is not one of 公开, 私密/),
      expect.stringMatching(/^MAC changed: "perhaps" is not one of 已更换, 未更换/),
    ]);
    expect(byRow.get(9)!.reasons).toEqual([
      "Amount: Amount must be the client shop's price for this result (¥10.00); you may not change it",
    ]);
    expect(byRow.get(10)!.reasons).toEqual([`Client shop: ${admin.username} is an administrator and cannot be a client shop`]);
    expect(byRow.get(11)!.reasons).toEqual(['Inspector: You can record orders only under your own name as inspector']);
    expect(byRow.get(3)!.values).toMatchObject({
      'Target WeChat ID': 'bad_mac',
      'MAC address': 'xx',
      'Install time': '2026-01-02 03:04',
      Amount: '',
    });

    expect(await ordersOf('bad_')).toEqual([]);
    expect(await balanceOf(shop.id)).toEqual(before);
  });

  it('with keepValid, writes the valid rows and reports the same rejected rows', async () => {
    const before = await balanceOf(shop.id);
    const answer = await importFile(await xlsx(rows()), 'bad.xlsx', inspector, { keepValid: true });
    expect(answer.status).toBe(200);
    expect(answer.data.imported).toBe(2);
    expect(answer.data.keepValid).toBe(true);
    expect(answer.data.rejected.map((r) => r.row)).toEqual([2, 3, 4, 5, 6, 8, 9, 10, 11]);
    expect((await ordersOf('bad_')).map((o) => o.objWechat).sort()).toEqual(['bad_keep_1', 'bad_keep_2']);
    const after = await balanceOf(shop.id);
    expect(after.balance).toBe(before.balance - 2 * priceOf(1));
    expect(after.balance).toBe(after.entries);
  });

  it('gives the reasons in Chinese to a Chinese caller', async () => {
    const answer = await importFile(
      csv([ZH, ['zh_bad', '名', 'CS2', 'xx', '2026-01-02 03:04', '作弊', 'nobody_at_all', '店', '', '', '', '', '']]),
      'bad.csv',
      inspector,
      { lang: 'zh-CN' },
    );
    expect(answer.data.rejected[0]!.reasons).toEqual([
      'MAC 地址：MAC 地址“xx”无效：请使用 AA-BB-CC-DD-EE-FF、aa:bb:cc:dd:ee:ff 或 aabbccddeeff',
      '客户店铺：没有用户名或昵称为“nobody_at_all”的用户',
    ]);
  });

  it('lets staff with the permissions name another inspector and override the amount', async () => {
    const file = csv([
      EN,
      [
        'staff_1',
        'x',
        'CS2',
        'aa-bb-cc-00-02-01',
        '2026-01-02 03:04',
        'cheating',
        shop.username,
        'y',
        inspector.username,
        '¥1.00',
        '',
        '',
        '',
      ],
    ]);
    const answer = await importFile(file, 'staff.csv', admin);
    expect(answer.data).toMatchObject({ imported: 1, rejected: [] });
    const [order] = await ordersOf('staff_');
    expect(order).toMatchObject({ inspectorId: inspector.id, amount: 100 });
  });
});

describe('bad files', () => {
  const expectError = (answer: Answer<unknown>, http: number, msg: string | RegExp) => {
    expect(answer.http).toBe(http);
    expect(answer.status).toBe(http);
    if (typeof msg === 'string') expect(answer.msg).toBe(msg);
    else expect(answer.msg).toMatch(msg);
    expect(answer.data).toBeNull();
  };

  it('refuses a duplicate header, naming it', async () => {
    const answer = await importFile(
      csv([
        [...EN, 'mac address'],
        ['x', 'x', 'CS2', 'aa-bb-cc-00-03-01', '2026-01-02', '0', shop.username, 'x', '', '', '', '', '', 'aa'],
      ]),
      'dup.csv',
      inspector,
    );
    expectError(answer, 400, 'The column "mac address" appears more than once in the header row');
  });

  it('refuses a header without the required columns, naming them', async () => {
    const answer = await importFile(
      csv([
        ['Target WeChat ID', 'Target name', 'Game', 'Result', 'Description'],
        ['x', 'x', 'CS2', '0', ''],
      ]),
      'missing.csv',
      inspector,
    );
    expectError(answer, 400, "The header row lacks the required columns: MAC address, Install time, Client shop, Target's shop");
    const zh = await importFile(csv([['目标微信号'], ['x']]), 'missing.csv', inspector, { lang: 'zh-CN' });
    expectError(zh, 400, '标题行缺少必填列：目标名称、游戏、MAC 地址、安装时间、检测结果、客户店铺、目标所属店铺');
  });

  it('refuses an empty file, a header-only file and a file of blank rows', async () => {
    expectError(await importFile(Buffer.alloc(0), 'empty.csv', inspector), 400, 'The file is empty: row 1 must hold the column headers');
    expectError(
      await importFile(Buffer.from('\uFEFF', 'utf8'), 'bom.csv', inspector),
      400,
      'The file is empty: row 1 must hold the column headers',
    );
    expectError(await importFile(await xlsx([]), 'empty.xlsx', inspector), 400, 'The file is empty: row 1 must hold the column headers');
    expectError(await importFile(csv([EN]), 'header.csv', inspector), 400, 'The file has the header row but no orders');
    expectError(await importFile(await xlsx([EN]), 'header.xlsx', inspector), 400, 'The file has the header row but no orders');
    expectError(
      await importFile(Buffer.from(`${EN.join(',')}\r\n,,,,\r\n\r\n, ,\r\n`), 'blank.csv', inspector),
      400,
      'The file has the header row but no orders',
    );
  });

  it('refuses what is not a spreadsheet', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const notSpreadsheet =
      'The file is neither an xlsx workbook nor a UTF-8 CSV file; save it as .xlsx or as "CSV UTF-8" and import it again';
    expectError(await importFile(png, 'photo.xlsx', inspector), 400, notSpreadsheet);
    // An old .xls (OLE2) and a GBK-encoded csv.
    expectError(
      await importFile(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'old.xls', inspector),
      400,
      notSpreadsheet,
    );
    expectError(await importFile(Buffer.from([0xc4, 0xbf, 0xb1, 0xea, 0x2c, 0x31, 0x0d, 0x0a]), 'gbk.csv', inspector), 400, notSpreadsheet);
    expectError(
      await importFile(Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200, 7)]), 'broken.xlsx', inspector),
      400,
      'The xlsx file could not be read; it may be damaged or password protected',
    );
    expectError(
      await importFile(Buffer.from(`${EN.join(',')}\r\n"unclosed,x\r\n`), 'quote.csv', inspector),
      400,
      'CSV row 2: a quoted field is not closed',
    );
  });

  it('refuses a request that is not a multipart upload of "file"', async () => {
    const json = await call(ctx, 'POST', '/api/admin/order/import', { as: inspector, payload: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.msg).toBe('Send the spreadsheet as multipart/form-data in the form field "file"');
    const wrongField = await importFile(csv([EN]), 'x.csv', inspector, { field: 'upload' });
    expectError(wrongField, 400, 'No file was sent: put the spreadsheet in the form field "file"');
    const garbage = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/order/import',
      headers: { ...inspector.headers, 'content-type': 'multipart/form-data; boundary=zzz' },
      payload: 'not multipart at all',
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json<{ msg: string }>().msg).toMatch(/multipart|No file/);
  });

  it('refuses a multipart upload without its boundary, and a second file beside "file" is left aside', async () => {
    const noBoundary = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/order/import',
      headers: { ...inspector.headers, 'content-type': 'multipart/form-data', 'accept-language': 'en-US' },
      payload: 'x',
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json<{ msg: string }>().msg).toBe('The upload could not be read as multipart/form-data');

    const form = await multipartForm([
      ['note', 'from the browser'],
      [
        'file',
        {
          body: csv([EN, ['two_files', 'x', 'CS2', 'aa-bb-cc-00-04-01', '2026-01-02 03:04', '0', shop.username, 'y', '', '', '', '', '']]),
          name: 'orders.csv',
        },
      ],
      ['file', { body: 'not a sheet at all', name: 'other.csv' }],
    ]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/order/import',
      headers: { ...inspector.headers, 'content-type': form.contentType, 'accept-language': 'en-US' },
      payload: form.payload,
    });
    expect(res.json<{ status: number; data: OrderImportResult }>()).toMatchObject({ status: 200, data: { total: 1, imported: 1 } });
  });

  it('refuses a file over the size limit', async () => {
    const answer = await importFile(Buffer.alloc(20 * 1024 * 1024 + 10, 0x41), 'big.csv', inspector);
    expectError(answer, 413, 'The file is larger than 20 MB; split it into smaller files');
  });

  it('refuses more than 50,000 orders in one file, csv or xlsx', async () => {
    const row = (i: number) => [
      `many_${i}`,
      'x',
      'CS2',
      'aa-bb-cc-00-00-01',
      '2026-01-02 03:04',
      '0',
      'nobody_at_all',
      'y',
      '',
      '',
      '',
      '',
      '',
    ];
    const tooMany = Array.from({ length: 50_001 }, (_, i) => row(i));
    const message = /^The file has more than 50,?000 orders; split it into smaller files$/;
    expectError(await importFile(csv([EN, ...tooMany]), 'many.csv', inspector), 400, message);
    // the xlsx is read as a stream: the limit is met while rows are already being checked
    expectError(await importFile(await xlsxStreamed([EN, ...tooMany]), 'many.xlsx', inspector), 400, message);
  }, 120_000);

  it('refuses a small xlsx that unpacks to more than 200 MB', async () => {
    const zip = new ZipFile();
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    zip.addReadStream(
      Readable.from(
        (function* () {
          for (let i = 0; i < 201; i++) yield chunk;
        })(),
      ),
      'xl/worksheets/sheet1.xml',
    );
    zip.end();
    const parts: Buffer[] = [];
    for await (const part of zip.outputStream) parts.push(part as Buffer);
    const bomb = Buffer.concat(parts);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expectError(
      await importFile(bomb, 'bomb.xlsx', inspector),
      413,
      'The workbook unpacks to more than 200 MB; split it into smaller files',
    );
  });

  it('is refused to a role without the import permission', async () => {
    const answer = await importFile(csv([EN]), 'x.csv', shop);
    expect(answer.status).toBe(403);
  });
});

describe('a large file', () => {
  // Rows are checked and written in batches of 1,000 while the rest is read: a bad row after
  // the first batches must still leave nothing behind (orders, counters, ledger, balance).
  it('rolls back batches already written when a later row is rejected, and with keepValid keeps the rest', async () => {
    const rows: Row[] = [EN];
    for (let i = 0; i < 2_500; i++) {
      const hex = (0x100000 + i).toString(16).padStart(6, '0');
      rows.push([
        `late_${i}`,
        `Target ${i}`,
        'CS2',
        i === 2_345 ? 'not a mac' : `aabbcc${hex}`,
        excelDate(2026, 1, 2, 8, i % 60),
        i % 4,
        shop.username,
        'Late shop',
        '',
        '',
        '',
        '',
        '',
      ]);
    }
    const file = await xlsx(rows);
    const before = await balanceOf(shop.id);
    const daily = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('orderDaily')
            .select((eb) => eb.fn.sum<number | string>('n').as('n'))
            .executeTakeFirstOrThrow()
        ).n ?? 0,
      );
    const dailyBefore = await daily();

    const refused = await importFile(file, 'late.xlsx', inspector);
    expect(refused.status, refused.msg).toBe(200);
    expect(refused.data.total).toBe(2_500);
    expect(refused.data.imported).toBe(0);
    expect(refused.data.rejected.map((r) => r.row)).toEqual([2_347]);
    expect(refused.data.rejected[0]!.reasons[0]).toMatch(/^MAC address: /);
    const none = await ctx.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('objWechat', 'like', 'late%')
      .executeTakeFirstOrThrow();
    expect(Number(none.n)).toBe(0);
    expect(await balanceOf(shop.id)).toEqual(before);
    expect(await daily()).toBe(dailyBefore);

    const kept = await importFile(file, 'late.xlsx', inspector, { keepValid: true });
    expect(kept.data).toMatchObject({ total: 2_500, imported: 2_499, keepValid: true });
    expect(kept.data.rejected.map((r) => r.row)).toEqual([2_347]);
    const after = await balanceOf(shop.id);
    expect(after.count).toBe(before.count + 2_499);
    expect(after.balance).toBe(after.entries);
    expect(await daily()).toBe(dailyBefore + 2_499);
  });

  it('refuses a csv whose quote never closes after thousands of good rows, and writes none of them even with keepValid', async () => {
    const rows: (string | number)[][] = [EN];
    for (let i = 0; i < 2_500; i++) {
      const hex = (0x200000 + i).toString(16).padStart(6, '0');
      rows.push([
        `unclosed_${i}`,
        `Target ${i}`,
        'CS2',
        `aabbcc${hex}`,
        '2026-01-02 03:04',
        i % 4,
        shop.username,
        'Shop',
        '',
        '',
        '',
        '',
        '',
      ]);
    }
    const file = Buffer.concat([csv(rows), Buffer.from('"unclosed_end,x\r\n')]);
    const before = await balanceOf(shop.id);
    for (const keepValid of [false, true]) {
      const answer = await importFile(file, 'unclosed.csv', inspector, { keepValid });
      expect(answer.http).toBe(400);
      expect(answer.msg).toBe('CSV row 2502: a quoted field is not closed');
    }
    expect(await ordersOf('unclosed_')).toEqual([]);
    expect(await balanceOf(shop.id)).toEqual(before);
  });

  it('imports 10,000 rows in one go, with their counters, charges and the operation log', async () => {
    const before = await balanceOf(other.id);
    const rows: Row[] = [EN];
    for (let i = 0; i < 10_000; i++) {
      const hex = i.toString(16).padStart(6, '0');
      rows.push([
        `bulk_${i}`,
        `Target ${i}`,
        'CS2',
        `aabbcc${hex}`,
        excelDate(2026, 1, 2, 8, i % 60),
        i % 4,
        other.username,
        'Bulk shop',
        '',
        '',
        '',
        '',
        '',
      ]);
    }
    const file = await xlsx(rows);
    const started = performance.now();
    const answer = await importFile(file, 'bulk.xlsx', inspector);
    const ms = performance.now() - started;
    console.info(`import of 10,000 rows: ${Math.round(ms)} ms`);
    expect(answer.status, answer.msg).toBe(200);
    expect(answer.data).toMatchObject({ total: 10_000, imported: 10_000, rejected: [], keepValid: false });
    // New chat IDs, empty "MAC changed" cells: nothing proposed on (machines may repeat earlier cases').
    expect(answer.data.history?.macChanged ?? 0).toBe(0);

    const list = await call<{ list: OrderItem[]; total: number }>(ctx, 'GET', `/api/admin/order/list?userId=${other.id}&pageSize=1`, {
      as: admin,
    });
    expect(list.data.total).toBe(10_000);
    // The shop's default: public.
    expect(list.data.list[0]!.ifPublic).toBe(1);
    const expected = Array.from({ length: 10_000 }, (_, i) => priceOf(i % 4)).reduce((a, b) => a + b, 0);
    const after = await balanceOf(other.id);
    expect(after.balance).toBe(before.balance - expected);
    expect(after.count).toBe(before.count + 10_000);
    expect(after.balance).toBe(after.entries);
    const codes = await ctx.db
      .selectFrom('orders')
      .select((eb) => eb.fn.count<number | string>('code').distinct().as('n'))
      .where('userId', '=', other.id)
      .executeTakeFirstOrThrow();
    expect(Number(codes.n)).toBe(10_000);

    await flushLogs(ctx);
    const log = await ctx.db
      .selectFrom('operationLogs')
      .selectAll()
      .where('module', '=', 'order')
      .where('action', '=', 'import')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(log.content).toBe('Order import "bulk.xlsx": 10000 rows, 10000 imported, 0 rejected');
    expect(log.status).toBe(1);
  });
});
