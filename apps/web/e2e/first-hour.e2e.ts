// The shop's first hour (issue 23's net), on the demo business, in both languages at 1440 × 900
// and 390 × 844: shop0001 signs in on the login form, finds its orders and opens one, opens a
// notice (an announcement the owner has just published) and a message from the bell, reads its
// balance and ledger in the user centre, shows an order's certificate, and looks a chat ID up
// on the public page. The harness's net watches every step: no error toast, console error or
// refused call, no clipped column, no text in the other language outside user data.
// Screenshots: docs/screenshots/first-hour-shop-<step>-<language>-<width>.png.
import type { Locator, Page } from '@playwright/test';
import {
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
  expect,
  login,
  newContext,
  settledScreenshot,
  signInToken,
  test,
  until,
  useApp,
} from './harness.ts';

const app = useApp({ DEMO: '1' });

const SIZES = { 1440: { width: 1440, height: 900 }, 390: { width: 390, height: 844 } } as const;

const TEXT = {
  'zh-CN': { title: '系统升级通知', body: '今晚 23:00 起检测服务暂停 30 分钟。' },
  'en-US': { title: 'Maintenance tonight', body: 'Checks pause for 30 minutes from 23:00.' },
} as const;

/** The owner publishes an announcement (as the super admin does on the workplace), for every user's bell. */
async function publish(title: string, body: string): Promise<void> {
  const token = await signInToken(app.server.url, 'superadmin', ADMIN_PASSWORD);
  const answer = await fetch(`${app.server.url}/api/admin/announcement/add`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ title, type: 'notice', content: `<p>${body}</p>` }),
  });
  expect(((await answer.json()) as { status: number }).status).toBe(200);
}

/** A new visitor of the login page in `locale` at `size`, not signed in. */
async function newcomer(locale: 'zh-CN' | 'en-US', size: keyof typeof SIZES): Promise<Page> {
  const context = await newContext(app.browser, app.server.url, locale, {
    cookies: [],
    origins: [{ origin: app.server.url, localStorage: [{ name: 'locale', value: locale }] }],
  });
  const page = await context.newPage();
  await page.setViewportSize(SIZES[size]);
  return page;
}

const shot = (page: Page, step: string, locale: string, size: number, show?: Locator) =>
  settledScreenshot(page, `first-hour-shop-${step}-${locale}-${size}`, { show });

test.describe("the shop's first hour", () => {
  for (const locale of ['zh-CN', 'en-US'] as const) {
    for (const size of [1440, 390] as const) {
      test(`shop0001 in ${locale} at ${size}: orders, a notice and a message, the ledger, a certificate, the public look-up`, async () => {
        test.setTimeout(180_000);
        const title = `${TEXT[locale].title} ${size}`;
        await publish(title, TEXT[locale].body);
        const page = await newcomer(locale, size);

        // Signs in on the form and lands on its orders.
        await page.goto('/login');
        await login(page, 'shop0001', DEMO_PASSWORD);
        await until(() => new URL(page.url()).pathname).toBe('/order/inspect');
        const rows = page.locator('.ant-table-tbody > tr.ant-table-row');
        await expect(rows.first()).toBeVisible();
        await shot(page, 'orders', locale, size);

        // Opens the first order's details, then closes them.
        const code = ((await rows.first().locator('[data-testid^="order-detail-"]').first().getAttribute('data-testid')) ?? '').replace(
          'order-detail-',
          '',
        );
        expect(code).toMatch(/^[0-9A-Z]{8}$/);
        await rows.first().locator(`[data-testid="order-detail-${code}"]`).click();
        const detail = page.getByTestId('order-detail');
        await expect(detail).toBeVisible();
        await expect(detail).toContainText(code);
        await page.getByTestId('order-detail-close').click();
        await expect(detail).toBeHidden();

        // The bell: the announcement, read in full, then a message, which leads to its order.
        await page.getByTestId('message-bell').click();
        const box = page.getByTestId('message-box');
        await expect(box).toBeVisible();
        await box.getByTestId('message-tab-notice').click();
        await box.locator('[data-testid^="message-item-"]').filter({ hasText: title }).click();
        const reader = page.locator('.ant-modal').filter({ has: page.getByTestId('announcement-content') });
        await expect(reader).toBeVisible();
        await expect(reader.getByTestId('announcement-content')).toHaveText(TEXT[locale].body);
        await shot(page, 'notice', locale, size);
        await reader.locator('.ant-modal-close').click();
        await expect(reader).toBeHidden();
        await page.getByTestId('message-bell').click();
        await box.getByTestId('message-tab-message').click();
        await box.locator('[data-testid^="message-item-"]').first().click();
        await expect(detail).toBeVisible();
        await page.getByTestId('order-detail-close').click();
        await expect(detail).toBeHidden();

        // The user centre: its balance and ledger.
        await page.goto('/user/info');
        await expect(page.getByTestId('account-balance')).toHaveText(/¥/);
        await expect(page.getByTestId('account-ledger').locator('.ant-table-row').first()).toBeVisible();
        await shot(page, 'ledger', locale, size, page.getByTestId('account-ledger'));

        // The certificate of the order it opened, as its customer would see it.
        await page.goto(`/verify/${code}`);
        await expect(page.getByTestId('verify-code')).toHaveText(code);
        await shot(page, 'certificate', locale, size);

        // The public look-up of a chat ID it has on record.
        const { objWechat } = app.server.db().prepare('select obj_wechat as objWechat from orders where code = ?').get(code) as {
          objWechat: string;
        };
        await page.goto('/');
        await page.getByTestId('public-lookup-input').fill(objWechat);
        await page.getByTestId('public-lookup-submit').click();
        await expect(page.getByTestId('public-lookup-result')).toBeVisible();
        await shot(page, 'lookup', locale, size, page.getByTestId('public-lookup-result'));
        await page.context().close();
      });
    }
  }
});
