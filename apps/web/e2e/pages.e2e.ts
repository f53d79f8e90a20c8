// Browser journey of the server-menu pages "form", "profile" and "result" and the
// profile's verification QR code, on the demo business. inspector01 opens the order
// form page from the menu, fills it (sections, uploaders, the amount from shop0001's price),
// submits and lands on the success page with the order's code; the order is in the list; the
// success page leads to the order's profile: every field, the images by kind, the order's charge
// on the ledger and a QR code that decodes to the verification URL. A submit the server refuses
// (the shop's price changed meanwhile) shows the failure page with the server's reason, and
// "back to the form" brings the input back. shop0001 opens its own order's profile (its balance
// beside the charge) and gets "not found" for another shop's private order.
// Screenshots: docs/screenshots/form-order-*, result-success-*, profile-order-* (zh-CN, en-US), result-fail-zh-CN.
import type { Locator, Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { OrderItem, OrderProfile } from '@clearplay/contract';
import { allowProblems, DEMO_PASSWORD, expect, settledScreenshot, test, until, useApp } from './harness.ts';
import { fillOrderForm, formPage, type Locale } from './order-form.ts';

const app = useApp({ DEMO: '1' });

type TablePageData<T> = { list: T[]; total: number };

// shop0001's prices in fen: normal, cheating, failed, suspicious
const PRICES = { default_price: 3800, default_price_cheat: 6600, default_price_not_pass: 2500, default_price_suspect: 4200 };

function setPrices(prices: Record<string, number>): void {
  const set = Object.keys(prices)
    .map((column) => `${column} = @${column}`)
    .join(', ');
  app.server.db().prepare(`UPDATE users SET ${set} WHERE username = 'shop0001'`).run(prices);
}

/** POST /api<path> with the page's session; answers the envelope's data. */
async function apiPost<T>(page: Page, path: string, body: unknown): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${app.server.url}/api${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as { status: number; msg: string; data: T };
  expect(envelope.status, `${path}: ${envelope.msg}`).toBe(200);
  return envelope.data;
}

/** Fills the order form page for shop0001 with a normal result (38.00 at PRICES); optionally uploads one image of each of two kinds. */
async function fill(page: Page, locale: Locale, objWechat: string, withImages: boolean): Promise<Locator> {
  const form = await fillOrderForm(page, locale, { objWechat, name: '表单页目标', mac: 'aa:bb:cc:dd:ee:51', withImages });
  await expect(form.getByTestId('order-form-amount')).toHaveValue('38.00');
  return form;
}

/** The text of the profile page's QR code, read off its canvas with jsqr. */
async function readQr(page: Page): Promise<string | undefined> {
  const canvas = page.getByTestId('order-profile-qr').locator('canvas');
  await expect(canvas).toHaveCount(1);
  const dataUrl = await canvas.evaluate((el) => (el as HTMLCanvasElement).toDataURL('image/png'));
  const image = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

test.describe('the form, result and profile pages', () => {
  let created: OrderItem | undefined;

  for (const locale of ['zh-CN', 'en-US'] as const) {
    test(`inspector01 records an order on the form page, lands on the success page and opens its profile (${locale})`, async () => {
      setPrices(PRICES);
      const objWechat = `wx_page_${locale}_${Date.now()}`;
      const page = await app.signedIn('inspector01', DEMO_PASSWORD, '/order/inspect', locale);
      // the side menu's "form" group (open, as every group at first) leads to the form page
      const menu = page.getByTestId('side-menu');
      expect(await menu.getByTestId('menu-form').textContent()).toBe(locale === 'zh-CN' ? '表单页' : 'Forms');
      await menu.getByTestId('menu-OrderForm').click();
      await until(() => new URL(page.url()).pathname).toBe('/form/order');
      const form = await fill(page, locale, objWechat, true);
      for (const section of ['target', 'detection', 'images'])
        expect(await form.getByTestId(`order-form-section-${section}`).getAttribute('class')).toContain('ant-card');
      // the target-history panel is on the page form as on the dialog
      await expect(form.getByTestId('history-panel')).toBeVisible();
      await settledScreenshot(page, `form-order-${locale}`);

      await form.getByTestId('order-form-page-submit').click();
      const success = page.getByTestId('result-success');
      await expect(success).toBeVisible();
      await until(() => new URL(page.url()).pathname).toBe('/result/success');
      const code = (await success.getByTestId('result-order-code').textContent()) ?? '';
      expect(code).toMatch(/^[A-Z2-9]{8}$/);
      // the order is in the list, as the form saved it
      const list = await app.apiGet<TablePageData<OrderItem>>(page, `/admin/order/list?objWechat=${objWechat}`);
      expect(list.list.map((o) => [o.code, o.amount])).toEqual([[code, 3800]]);
      const order = list.list[0]!;
      if (locale === 'zh-CN') created = order;
      await settledScreenshot(page, `result-success-${locale}`);

      await success.getByTestId('result-to-profile').click();
      const profile = page.getByTestId('order-profile');
      await expect(profile).toBeVisible();
      await until(() => new URL(page.url()).pathname).toBe(`/profile/order/${order.id}`);
      const fields = await profile.getByTestId('order-profile-fields').textContent();
      for (const expected of [code, objWechat, '表单页目标', '目标所属店铺乙', 'AA-BB-CC-DD-EE-51', '¥38.00', '检测员01'])
        expect(fields).toContain(expected);
      // the images by kind, loaded
      const images = profile.getByTestId('order-profile-images');
      await expect(images.getByTestId('order-images-certImages').locator('img')).toHaveCount(1);
      expect(await images.getByTestId('order-images-proofImages').locator('img').count()).toBe(1);
      expect(await images.getByTestId('order-images-personCertImages').count()).toBe(0);
      await until(() =>
        images
          .locator('img')
          .evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)),
      ).toBe(true);
      // its ledger entry: the charge of the amount; an inspector sees no shop balance
      const ledger = profile.getByTestId('order-profile-ledger-table').locator('.ant-table-row');
      await expect(ledger).toHaveCount(1);
      const entry = await ledger.first().textContent();
      expect(entry).toContain(locale === 'zh-CN' ? '扣费' : 'Charge');
      expect(entry).toContain('-¥38.00');
      expect(entry).toContain('inspector01');
      // the verification code, its URL and a QR code of it
      const verifyUrl = `${app.server.url}/verify/${code}`;
      expect(await profile.getByTestId('order-profile-code').textContent()).toContain(code);
      expect(await profile.getByTestId('order-profile-verify-url').getAttribute('href')).toBe(verifyUrl);
      await until(() => readQr(page)).toBe(verifyUrl);
      await settledScreenshot(page, `profile-order-${locale}`);
      await page.context().close();
    });
  }

  test('a submit the server refuses shows the failure page; back to the form keeps the input, and it saves once fixed', async () => {
    setPrices(PRICES);
    const objWechat = `wx_page_fail_${Date.now()}`;
    const page = await app.signedIn('inspector01', DEMO_PASSWORD, '/form/order', 'zh-CN');
    const form = await fill(page, 'zh-CN', objWechat, false);
    await form.getByTestId('order-form-description').fill('价格变动中提交');
    // the shop's price changes while the form is open: the server refuses the amount
    allowProblems(/HTTP 400 POST \/api\/admin\/order\/create/);
    setPrices({ ...PRICES, default_price: 3900 });
    await form.getByTestId('order-form-page-submit').click();
    const fail = page.getByTestId('result-fail');
    await expect(fail).toBeVisible();
    await until(() => new URL(page.url()).pathname).toBe('/result/fail');
    await expect(fail.getByTestId('result-fail-reasons')).toContainText('金额必须是客户店铺对该结果的价格（¥39.00）');
    await settledScreenshot(page, 'result-fail-zh-CN');
    const none = await app.apiGet<TablePageData<OrderItem>>(page, `/admin/order/list?objWechat=${objWechat}`);
    expect(none.total).toBe(0);

    await fail.getByTestId('result-back-to-form').click();
    const back = formPage(page);
    await expect(back.getByTestId('order-form-objWechat')).toHaveValue(objWechat);
    expect(await back.getByTestId('order-form-description').inputValue()).toBe('价格变动中提交');
    expect(await back.getByTestId('order-form-mac').inputValue()).toBe('aa:bb:cc:dd:ee:51');
    // the server's reason sits on the amount
    await expect(back.locator('#amount_help, .ant-form-item-has-error').first()).toContainText('金额必须是客户店铺对该结果的价格');

    // the price back as the form has it: the same input saves
    setPrices(PRICES);
    await back.getByTestId('order-form-page-submit').click();
    await expect(page.getByTestId('result-success')).toBeVisible();
    const saved = await app.apiGet<TablePageData<OrderItem>>(page, `/admin/order/list?objWechat=${objWechat}`);
    expect(saved.list.map((o) => [o.amount, o.description])).toEqual([[3800, '价格变动中提交']]);
    // "record another" starts from an empty form
    await page.getByTestId('result-record-another').click();
    await expect(formPage(page).getByTestId('order-form-objWechat')).toHaveValue('');
    await page.context().close();
  });

  test('shop0001 opens its own order’s profile, with its balance; another shop’s private order is not found', async () => {
    expect(created).toBeDefined();
    const order = created!;
    // a private order of another shop, recorded by an inspector
    const inspector = await app.signedIn('inspector01', DEMO_PASSWORD, '/order/inspect', 'zh-CN');
    const other = app.server.db().prepare(`SELECT id, default_price AS price FROM users WHERE username = 'shop0002'`).get() as {
      id: number;
      price: number;
    };
    const me = await app.apiGet<{ id: number }>(inspector, '/admin/user/info');
    const hidden = await apiPost<OrderItem>(inspector, '/admin/order/create', {
      objWechat: `wx_private_${Date.now()}`,
      objWechatName: '别家目标',
      gameName: order.gameName,
      mac: 'aa:bb:cc:dd:ee:52',
      installationTime: new Date().toISOString(),
      result: 0,
      userId: other.id,
      objClientName: '别家',
      inspectorId: me.id,
      amount: other.price,
      ifPublic: 0,
    });
    await inspector.context().close();

    const page = await app.signedIn('shop0001', DEMO_PASSWORD, '/order/inspect', 'zh-CN');
    // no form page in a shop's menu
    await expect(page.getByTestId('side-menu').getByTestId('menu-Inspect')).toHaveCount(1);
    expect(await page.getByTestId('side-menu').getByTestId('menu-form').count()).toBe(0);
    // the list's code leads to the profile
    await page.locator('#search-order-inspect_objWechat').fill(order.objWechat);
    await page.getByTestId('search-submit').click();
    await expect(page.getByTestId(`order-profile-link-${order.code}`)).toBeVisible();
    await page.getByTestId(`order-profile-link-${order.code}`).click();
    const profile = page.getByTestId('order-profile');
    await expect(profile).toBeVisible();
    expect(await profile.getAttribute('data-code')).toBe(order.code);
    const ledger = profile.getByTestId('order-profile-ledger-table').locator('.ant-table-row');
    await expect(ledger).toHaveCount(1);
    // the shop sees its balance after the charge
    const data = await app.apiGet<OrderProfile>(page, `/admin/order/profile?id=${order.id}`);
    expect(data.ledger?.map((e) => [e.kind, e.amount, typeof e.balanceAfter])).toEqual([['charge', -3800, 'number']]);
    expect(await profile.getByTestId('order-profile-ledger').textContent()).toContain('余额');
    await until(() => readQr(page)).toBe(`${app.server.url}/verify/${order.code}`);

    // another shop's private order: not found, nothing of it shown
    allowProblems(/HTTP 404 GET \/api\/admin\/order\/profile/);
    await page.goto(`/profile/order/${hidden.id}`);
    await expect(page.getByTestId('order-profile-missing')).toBeVisible();
    expect(await page.locator('body').textContent()).not.toContain(hidden.code);
    await page.context().close();
  });
  test('after an import with a rejected row, the dialog leads to the result page with the counts', async () => {
    const page = await app.signedIn('inspector01', DEMO_PASSWORD, '/order/inspect', 'zh-CN');
    const d = new Date(Date.now() - 24 * 60 * 60 * 1000 + 8 * 60 * 60 * 1000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const installed = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
    const stamp = Date.now();
    const csv = [
      'objWechat,objWechatName,gameName,mac,installationTime,result,userName,objClientName',
      `wx_imp_${stamp}_1,甲,王者荣耀,aa:bb:cc:dd:ee:61,${installed},正常,shop0001,星辰陪玩`,
      `wx_imp_${stamp}_2,乙,王者荣耀,zz-zz,${installed},正常,shop0001,星辰陪玩`,
    ].join('\r\n');
    await page.getByTestId('order-import').click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('order-import-submit') });
    await expect(dialog).toBeVisible();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await dialog.getByTestId('order-import-keep-valid').check();
    await dialog.getByTestId('order-import-submit').click();
    await expect(page.getByTestId('order-import-result')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('order-import-result-page').click();
    const result = page.getByTestId('result-success');
    await expect(result).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/result/success');
    expect(await result.getAttribute('data-from')).toBe('import');
    expect(await result.locator('.ant-result-title').textContent()).toBe('部分导入');
    const stat = async (testId: string) => (await result.getByTestId(testId).locator('.ant-statistic-content-value').textContent())?.trim();
    expect([await stat('result-import-total'), await stat('result-import-imported'), await stat('result-import-rejected')]).toEqual([
      '2',
      '1',
      '1',
    ]);
    const imported = await app.apiGet<TablePageData<OrderItem>>(page, `/admin/order/list?objWechat=wx_imp_${stamp}_`);
    expect(imported.total).toBe(1);
    await result.getByTestId('result-to-list').click();
    await until(() => new URL(page.url()).pathname).toBe('/order/inspect');
    await page.context().close();
  });
});
