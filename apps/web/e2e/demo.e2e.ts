// Browser journey on the demo business (DEMO=1, as `npm start -- --demo` seeds it): a newcomer
// signs in as each demo account and finds a living product — the super admin, the office
// admin and an inspector see thousands of orders of every result; the admin opens a shop's
// balance and finds its charges and recharges; the demo shop sees its own orders (amounts
// and client shown) among the public records of other shops, and an order's evidence images load.
import type { Locator, Page } from '@playwright/test';
import { ADMIN_PASSWORD, chooseOption, DEMO_PASSWORD, expect, screenshot, test, until, useApp } from './harness.ts';

const app = useApp({ DEMO: '1' });

interface OrderRow {
  id: number;
  code: string;
  userId: number | null;
  result: number;
  view: 'full' | 'public';
  proofImages: string;
}

/** Signed in on the order screen, its first page of rows shown. */
async function onOrders(username: string, password: string): Promise<{ page: Page; table: Locator }> {
  const page = await app.signedIn(username, password, '/order/inspect');
  const table = page.getByTestId('order-table');
  await expect(table.locator('.ant-table-row')).toHaveCount(20);
  return { page, table };
}

test.describe('the demo business, as each demo account', () => {
  test('the start banner says what the demo holds', () => {
    expect(app.server.output()).toMatch(/demo business: 20 shops .*3 inspectors, \d{4} orders over 90 days/);
  });

  for (const [username, password] of [
    ['superadmin', ADMIN_PASSWORD],
    ['admin01', DEMO_PASSWORD],
    ['inspector01', DEMO_PASSWORD],
  ] as const) {
    test(`${username} sees thousands of orders of every result`, async () => {
      const { page, table } = await onOrders(username, password);
      const all = await app.apiGet<{ total: number }>(page, '/admin/order/list?pageSize=1');
      expect(all.total).toBeGreaterThan(4500);
      // The pager shows the same total; the first page names results, shops and amounts.
      await expect(table.locator('.ant-pagination')).toContainText(String(Math.ceil(all.total / 20)));
      const text = (await table.locator('.ant-table-tbody').textContent()) ?? '';
      expect(text).toContain('¥');
      expect(text).toMatch(/正常|作弊|未通过|可疑/);
      for (const result of [0, 1, 2, 3])
        expect(
          (await app.apiGet<{ total: number }>(page, `/admin/order/list?result=${result}&pageSize=1`)).total,
          `result ${result}`,
        ).toBeGreaterThan(50);
      if (username === 'superadmin') await screenshot(page, 'demo-orders-zh-CN');
      await page.context().close();
    });
  }

  test('admin01 opens the demo shop’s balance: charges of its orders and its recharges', async () => {
    const { page } = await onOrders('admin01', DEMO_PASSWORD);
    await page.getByTestId('ledger-open').click();
    const drawer = page.getByTestId('ledger-drawer');
    await expect(drawer).toBeVisible();
    await drawer.getByTestId('ledger-shop').click();
    await page.keyboard.type('shop0001');
    await chooseOption(page, 'shop0001');
    const balance = drawer.getByTestId('ledger-balance');
    await until(() => balance.getAttribute('data-fen')).toMatch(/^-?\d+$/);
    expect(Number(await balance.getAttribute('data-fen'))).not.toBe(0);
    await until(() => drawer.locator('.ant-table-row').count()).toBeGreaterThan(5);
    const rows = await drawer.locator('.ant-table-row').allTextContents();
    expect(rows.some((r) => r.includes('扣费') && /订单 [0-9A-Z]{8}/.test(r))).toBe(true);
    // One charge per order, and recharges besides: more entries than orders.
    const id = await shopId(page);
    const ledger = await app.apiGet<{ total: number; balance: number }>(page, `/admin/user/ledger?userId=${id}&pageSize=1`);
    const orders = await app.apiGet<{ total: number }>(page, `/admin/order/list?userId=${id}&pageSize=1`);
    expect(orders.total).toBeGreaterThan(100);
    expect(ledger.total).toBeGreaterThan(orders.total);
    expect(ledger.balance).toBe(Number(await balance.getAttribute('data-fen')));
    await screenshot(page, 'demo-ledger-zh-CN');
    await page.context().close();
  });

  test('shop0001 sees its own orders in full among other shops’ public ones, and an order’s images load', async () => {
    const { page, table } = await onOrders('shop0001', DEMO_PASSWORD);
    const me = await app.apiGet<{ id: number }>(page, '/admin/user/info');
    const own = await app.apiGet<{ total: number; list: OrderRow[] }>(page, `/admin/order/list?userId=${me.id}&pageSize=50`);
    expect(own.total).toBeGreaterThan(100);
    expect(own.list.every((o) => o.view === 'full' && o.userId === me.id)).toBe(true);
    const seen = await app.apiGet<{ total: number; list: OrderRow[] }>(page, '/admin/order/list?pageSize=100');
    expect(seen.total).toBeGreaterThan(own.total);
    expect(seen.list.some((o) => o.view === 'public')).toBe(true);

    // Its own order, found by its verification code, opened in Order Details with its evidence.
    const order = own.list.find((o) => o.proofImages !== '');
    expect(order).toBeDefined();
    const toggle = table.getByTestId('search-toggle');
    if ((await toggle.count()) > 0 && (await toggle.textContent())?.includes('展开')) await toggle.click();
    await table
      .locator('.ant-form-item')
      .filter({ has: page.locator('label', { hasText: /^验证码$/ }) })
      .locator('input')
      .fill(order!.code);
    await table.getByTestId('search-submit').click();
    await expect(table.locator('.ant-table-row')).toHaveCount(1);
    const row = table.locator('.ant-table-row').first();
    expect(await row.textContent()).toContain('演示店铺01');
    expect(await row.textContent()).toContain('¥');
    await row.getByTestId(`order-detail-${order!.code}`).click();
    const detail = page.locator('.ant-modal').filter({ has: page.getByTestId('order-detail') });
    await until(() => detail.getByTestId('order-images-proofImages').locator('img').count()).toBeGreaterThan(0);
    await until(() =>
      detail
        .locator('[data-testid^="order-images-"] img')
        .evaluateAll(
          (imgs) =>
            imgs.length > 0 && imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
        ),
    ).toBe(true);
    expect(await detail.textContent()).toContain(order!.code);
    await page.context().close();
  });
});

async function shopId(page: Page): Promise<number> {
  const users = await app.apiGet<{ id: number; username: string }[]>(page, '/admin/user/search?keyword=shop0001&roleName=shop');
  const shop = users.find((u) => u.username === 'shop0001');
  expect(shop).toBeTruthy();
  return shop!.id;
}
