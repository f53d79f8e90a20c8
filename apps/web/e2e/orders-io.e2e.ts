// Over 400 lines: browser journeys of the order screen's batch import and export, and of the shop balances
// (ledger) drawer: an admin downloads the import template, fills it, imports it all-or-nothing
// (nothing written, the bad rows reported) and then keeping the valid rows, downloads the
// rejected-rows report; exports a filtered list and reads the xlsx back; records a recharge.
// Screenshots: docs/screenshots/orders-import-*.png, orders-export*.png, ledger-*.png.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Locator, Page } from '@playwright/test';
import { chooseOption, cleanTmp, DEMO_PASSWORD, expect, settledScreenshot as screenshot, test, until, useApp } from './harness.ts';
import { downloadOf, fillTemplate, importThroughDialog, statValue, type SheetRow } from './order-import.ts';

const app = useApp();
let downloads: string;

test.beforeAll(() => {
  downloads = mkdtempSync(join(tmpdir(), 'clearplay-orders-io-'));
});

test.afterAll(() => {
  if (downloads) cleanTmp(downloads);
});

const toast = (page: Page, text: string | RegExp) => expect(page.locator('.ant-message-notice', { hasText: text }).first()).toBeVisible();

/** The visible modal whose title contains `title`. */
const modal = (page: Page, title: string | RegExp): Locator =>
  page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

const ROWS_BEFORE_MARKER = 'wx_e2e_';

/** Header text as the template writes it, without a required marker or a note. */
const bareHeader = (text: string) =>
  text
    .replace(/\s+/g, '')
    .replace(/^\*+|\*+$/g, '')
    .replace(/[（(][^（()）]*[)）]$/, '');

/**
 * Five orders under the template's own headers: rows 2, 3 and 5 are valid; row 4 has a bad
 * MAC; row 6 names a shop that does not exist (and carries a formula-like description).
 */
const IMPORT_ROWS: SheetRow[] = [
  {
    objWechat: `${ROWS_BEFORE_MARKER}01`,
    objWechatName: '张三',
    gameName: '王者荣耀',
    mac: 'AA-BB-CC-DD-EE-01',
    result: '作弊',
    userName: 'shop0001',
    objClientName: '星辰陪玩',
    amount: '30.00',
    ifPublic: '公开',
    ifChangedMac: '否',
    description: '导入的作弊记录',
  },
  {
    objWechat: `${ROWS_BEFORE_MARKER}02`,
    objWechatName: '李四',
    gameName: '和平精英',
    mac: 'aa:bb:cc:dd:ee:02',
    result: '正常',
    userName: 'shop0001',
    objClientName: '星辰陪玩',
    amount: '12.50',
    ifPublic: '私密',
    ifChangedMac: '否',
    description: '',
  },
  {
    objWechat: `${ROWS_BEFORE_MARKER}03`,
    objWechatName: '王五',
    gameName: '王者荣耀',
    mac: 'ZZ-12-34',
    result: '作弊',
    userName: 'shop0001',
    objClientName: '星辰陪玩',
    amount: '30.00',
    ifPublic: '公开',
    ifChangedMac: '否',
    description: '',
  },
  {
    objWechat: `${ROWS_BEFORE_MARKER}04`,
    objWechatName: '赵六',
    gameName: '无畏契约',
    mac: 'aabbccddee04',
    result: '作弊',
    userName: '演示店铺01',
    objClientName: '月光陪玩',
    amount: '30.00',
    ifPublic: '公开',
    ifChangedMac: '是',
    description: '',
  },
  {
    objWechat: `${ROWS_BEFORE_MARKER}05`,
    objWechatName: '孙七',
    gameName: '王者荣耀',
    mac: 'AA-BB-CC-DD-EE-05',
    result: '正常',
    userName: 'noshop9999',
    objClientName: '星辰陪玩',
    amount: '12.50',
    ifPublic: '公开',
    ifChangedMac: '否',
    description: '=1+1',
  },
];

interface OrderPage {
  list: { objWechat: string; result: number; amount: number | null; code: string }[];
  total: number;
}

test.describe('batch import', () => {
  test('template → five rows, two bad: all-or-nothing imports none and reports rows 4 and 6; keeping the valid rows imports 3; the report downloads', async () => {
    const page = await app.signedIn('admin01', DEMO_PASSWORD, '/order/inspect');
    await expect(page.getByTestId('order-table')).toBeVisible();
    const before = await app.apiGet<OrderPage>(page, '/admin/order/list?pageSize=1');

    await page.getByTestId('order-import').click();
    const dialog = modal(page, '批量导入');
    await expect(dialog).toBeVisible();
    await screenshot(page, 'orders-import-zh-CN');

    // The template: an xlsx whose first sheet's row 1 holds the Chinese headers.
    const template = await downloadOf(page, dialog.getByTestId('order-import-template'), downloads);
    expect(template.name).toMatch(/\.xlsx$/);
    const { path: filled, headers } = await fillTemplate(template.path, IMPORT_ROWS, downloads);
    expect(headers.map(bareHeader)).toEqual(expect.arrayContaining(['目标微信号', 'MAC地址', '检测结果', '客户店铺', '金额']));

    // Default: all or nothing. Rows 4 (bad MAC) and 6 (unknown shop) are reported; nothing is written.
    let report = await importThroughDialog(page, filled, false);
    expect(await statValue(report, 'order-import-total')).toBe(5);
    expect(await statValue(report, 'order-import-imported')).toBe(0);
    expect(await statValue(report, 'order-import-rejected-count')).toBe(2);
    expect(await report.getByTestId('order-import-outcome').textContent()).toContain('未导入任何记录');
    const rejected = report.getByTestId('order-import-rejected').locator('.ant-table-row');
    expect(await rejected.count()).toBe(2);
    const [rowFour, rowSix] = await rejected.allTextContents();
    expect(rowFour).toMatch(/^4/);
    expect(rowFour).toContain('ZZ-12-34');
    expect(rowFour).toMatch(/MAC/);
    expect(rowSix).toMatch(/^6/);
    expect(rowSix).toContain('noshop9999');
    await screenshot(page, 'orders-import-rejected-zh-CN');
    expect((await app.apiGet<OrderPage>(page, '/admin/order/list?pageSize=1')).total).toBe(before.total);

    // The rejected rows as a CSV: BOM, row numbers, reasons, the cells, the formula neutralised.
    const csv = await downloadOf(page, report.getByTestId('order-import-download-rejected'), downloads);
    expect(csv.name).toMatch(/\.csv$/);
    const bytes = readFileSync(csv.path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toMatch(/^行号,原因,/);
    expect(lines.find((l) => l.startsWith('4,'))).toContain('ZZ-12-34');
    const six = text.slice(text.indexOf('\r\n6,'));
    expect(six).toContain('noshop9999');
    expect(six).toContain("'=1+1");
    expect(text).not.toMatch(/,=1\+1/);

    // Again, keeping the valid rows: 3 imported, the same 2 reported; the list shows them.
    await dialog.getByTestId('order-import-again').click();
    report = await importThroughDialog(page, filled, true);
    expect(await statValue(report, 'order-import-imported')).toBe(3);
    expect(await statValue(report, 'order-import-rejected-count')).toBe(2);
    expect(await report.getByTestId('order-import-outcome').textContent()).toContain('已导入 3 条记录');
    await screenshot(page, 'orders-import-kept-zh-CN');
    await dialog.getByTestId('order-import-close').click();
    for (const id of ['01', '02', '04']) {
      await until(() =>
        page
          .getByTestId('order-table')
          .locator('.ant-table-row', { hasText: `${ROWS_BEFORE_MARKER}${id}` })
          .count(),
      ).toBe(1);
    }
    const after = await app.apiGet<OrderPage>(page, `/admin/order/list?objWechat=${ROWS_BEFORE_MARKER}&pageSize=50`);
    expect(after.list.map((o) => o.objWechat).sort()).toEqual([
      `${ROWS_BEFORE_MARKER}01`,
      `${ROWS_BEFORE_MARKER}02`,
      `${ROWS_BEFORE_MARKER}04`,
    ]);
    await page.context().close();
  });
});

test.describe('export', () => {
  test('result = cheating: the xlsx holds exactly the filtered rows, with dictionary labels and CNY amounts', async () => {
    const page = await app.signedIn('admin01', DEMO_PASSWORD, '/order/inspect');
    const table = page.getByTestId('order-table');
    await until(() => table.locator('.ant-table-row').count()).toBeGreaterThan(0);

    // Filter by result = 作弊 through the search form.
    const toggle = table.getByTestId('search-toggle');
    if ((await toggle.count()) > 0 && (await toggle.textContent())?.includes('展开')) await toggle.click();
    const item = table
      .locator('.ant-form-item')
      .filter({ has: page.locator('label', { hasText: /^检测结果$/ }) })
      .first();
    await item.locator('.ant-select').first().click();
    await chooseOption(page, /^作弊$/);
    await table.getByTestId('search-submit').click();
    // Every page of the filter (the demo business alone holds hundreds of cheating orders).
    const expected: OrderPage = await app.apiGet<OrderPage>(page, '/admin/order/list?result=1&pageSize=200');
    for (let n = 2; expected.list.length < expected.total; n++)
      expected.list.push(...(await app.apiGet<OrderPage>(page, `/admin/order/list?result=1&pageSize=200&page=${n}`)).list);
    expect(expected.total).toBeGreaterThanOrEqual(2);
    await expect(table.locator('.ant-table-row')).toHaveCount(Math.min(expected.total, 20));
    await screenshot(page, 'orders-export-zh-CN');

    // the export is counted among the visit statistics' events
    const exports = () =>
      (app.server.db().prepare(`SELECT count(*) AS n FROM client_events WHERE event = 'order.export'`).get() as { n: number }).n;
    const exportsBefore = exports();
    const file = await downloadOf(page, page.getByTestId('order-export'), downloads);
    expect(file.name).toMatch(/\.xlsx$/);
    await toast(page, '已导出');
    await until(exports).toBe(exportsBefore + 1);

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file.path);
    const sheet = book.worksheets[0]!;
    const headers: string[] = [];
    sheet.getRow(1).eachCell({ includeEmpty: false }, (cell, col) => (headers[col - 1] = bareHeader(String(cell.text))));
    const col = (name: string) => {
      const index = headers.indexOf(name);
      expect(index, `column ${name} in ${headers.join(',')}`).toBeGreaterThanOrEqual(0);
      return index + 1;
    };
    const [codeCol, resultCol, amountCol, wechatCol, publicCol] = ['验证码', '检测结果', '金额', '目标微信号', '是否公开'].map(col) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const rows: { code: string; result: string; amount: unknown; amountFormat: string; wechat: string; isPublic: string }[] = [];
    sheet.eachRow({ includeEmpty: false }, (row, n) => {
      if (n === 1) return;
      rows.push({
        code: row.getCell(codeCol).text,
        result: row.getCell(resultCol).text,
        amount: row.getCell(amountCol).value,
        amountFormat: row.getCell(amountCol).numFmt ?? '',
        wechat: row.getCell(wechatCol).text,
        isPublic: row.getCell(publicCol).text,
      });
    });
    expect(rows.length).toBe(expected.total);
    expect(new Set(rows.map((r) => r.code))).toEqual(new Set(expected.list.map((o) => o.code)));
    expect(new Set(rows.map((r) => r.result))).toEqual(new Set(['作弊']));
    for (const r of rows) expect(['公开', '私密']).toContain(r.isPublic);
    const imported = rows.find((r) => r.wechat === `${ROWS_BEFORE_MARKER}01`);
    expect(imported).toBeTruthy();
    // Amounts are CNY numbers shown with two decimals (not fen).
    expect(imported!.amount).toBe(30);
    for (const r of rows) expect(r.amountFormat).toMatch(/0\.00/);
    await page.context().close();
  });
});

test.describe('shop balances', () => {
  test('an admin picks shop0001, records a recharge of 100.00 CNY and sees the new balance and the entry', async () => {
    const page = await app.signedIn('admin01', DEMO_PASSWORD, '/order/inspect');
    await page.getByTestId('ledger-open').click();
    const drawer = page.getByTestId('ledger-drawer');
    await expect(drawer).toBeVisible();
    await screenshot(page, 'ledger-empty-zh-CN');

    await drawer.getByTestId('ledger-shop').click();
    await page.keyboard.type('shop0001');
    await chooseOption(page, 'shop0001');
    const balance = drawer.getByTestId('ledger-balance');
    await until(() => balance.getAttribute('data-fen')).toMatch(/^-?\d+$/);
    const before = Number(await balance.getAttribute('data-fen'));
    const entriesBefore = (await app.apiGet<{ total: number }>(page, '/admin/user/ledger?userId=' + (await shopId(page)))).total;

    await drawer.getByTestId('ledger-recharge').click();
    const form = modal(page, '充值：');
    await expect(form).toBeVisible();
    // The amount is required.
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await expect(form.locator('.ant-form-item-explain-error').first()).toContainText('充值金额');
    await form.getByTestId('ledger-recharge-amount').fill('100');
    await form.getByTestId('ledger-recharge-remark').fill('e2e 转账收款');
    await screenshot(page, 'ledger-recharge-zh-CN');
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '充值成功');

    await until(async () => Number(await balance.getAttribute('data-fen'))).toBe(before + 10_000);
    expect(await balance.textContent()).toContain(formatCny(before + 10_000));
    const first = drawer.locator('.ant-table-row').first();
    await expect(first).toContainText('e2e 转账收款');
    const text = (await first.textContent()) ?? '';
    expect(text).toContain('充值');
    expect(text).toContain('+¥100.00');
    expect(text).toContain(formatCny(before + 10_000));
    expect(text).toContain('admin01');
    // The server agrees: one more entry, the balance moved by exactly 100.00.
    const after = await app.apiGet<{ total: number; balance: number }>(page, '/admin/user/ledger?userId=' + (await shopId(page)));
    expect(after.total).toBe(entriesBefore + 1);
    expect(after.balance).toBe(before + 10_000);
    // The charges of the orders imported above read in Chinese, with the order's code.
    const charges = (await drawer.locator('.ant-table-row').allTextContents()).filter((row) => row.includes('扣费'));
    expect(charges.length).toBeGreaterThan(0);
    for (const row of charges) expect(row).toMatch(/订单 [0-9A-Z]{6,}/);
    await screenshot(page, 'ledger-zh-CN');
    await page.context().close();
  });

  test('English; a shop sees neither the balances nor the import button', async () => {
    const page = await app.signedIn('admin01', DEMO_PASSWORD, '/order/inspect', 'en-US');
    await page.getByTestId('ledger-open').click();
    const drawer = page.getByTestId('ledger-drawer');
    await drawer.getByTestId('ledger-shop').click();
    await page.keyboard.type('shop0001');
    await chooseOption(page, 'shop0001');
    await until(() => drawer.locator('.ant-table-row').count()).toBeGreaterThan(0);
    expect(await drawer.locator('.ant-table-row').first().textContent()).toContain('Recharge');
    const charges = (await drawer.locator('.ant-table-row').allTextContents()).filter((row) => row.includes('Charge'));
    expect(charges.length).toBeGreaterThan(0);
    for (const row of charges) expect(row).toMatch(/Order [0-9A-Z]{6,}/);
    await screenshot(page, 'ledger-en-US');
    await drawer.locator('.ant-drawer-close').click();

    // The import dialog in English.
    await page.getByTestId('order-import').click();
    const dialog = modal(page, 'Import detection records');
    await expect(dialog).toBeVisible();
    expect(await dialog.getByRole('checkbox', { name: 'Keep the valid rows' }).isChecked()).toBe(false);
    await screenshot(page, 'orders-import-en-US');
    await page.context().close();

    const shop = await app.signedIn('shop0001', DEMO_PASSWORD, '/order/inspect');
    await expect(shop.getByTestId('order-table')).toBeVisible();
    expect(await shop.getByTestId('ledger-open').count()).toBe(0);
    expect(await shop.getByTestId('order-import').count()).toBe(0);
    await shop.context().close();
  });
});

/** '¥1,234.50' / '-¥12.50', as the screen shows fen. */
function formatCny(fen: number): string {
  const text = (Math.abs(fen) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${fen < 0 ? '-' : ''}¥${text}`;
}

let shopIdCache: number | undefined;
async function shopId(page: Page): Promise<number> {
  if (shopIdCache === undefined) {
    const users = await app.apiGet<{ id: number; username: string }[]>(page, '/admin/user/search?keyword=shop0001&roleName=shop');
    const shop = users.find((u) => u.username === 'shop0001');
    expect(shop).toBeTruthy();
    shopIdCache = shop!.id;
  }
  return shopIdCache;
}
