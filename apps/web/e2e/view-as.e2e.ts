// Browser journey of switch roles (decision 0060) on the demo business: the super
// admin opens "switch roles" from the user menu, views the app as the shop account shop0001,
// sees only the shop's menu and the banner, is refused an admin call although the session is a
// super admin's, and switches back to the full menu. Screenshots in both languages.
import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, escapeFrom, expect, pick, settledScreenshot, test, until, useApp } from './harness.ts';

const app = useApp({ DEMO: '1' });

/** The side menu's entries (groups and screens) by route name. */
const menuNames = (page: Page) =>
  page
    .getByTestId('side-menu')
    .locator('[data-testid^="menu-"]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')?.slice('menu-'.length)).sort());

/** The envelope status of GET /api<path> as the page's session (apiGet expects 200; this one reads a refusal). */
async function statusOf(page: Page, path: string): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${app.server.url}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { status: number }).status;
}

const SUPER_ADMIN_MENU = [
  'DataAnalysis',
  'Dict',
  'Exception403',
  'Exception404',
  'Exception500',
  'Inspect',
  'Log',
  'Monitor',
  'OrderForm',
  'Role',
  'User',
  'Workplace',
  'dashboard',
  'exception',
  'form',
  'order',
  'system',
  'visualization',
];

test.describe('switch roles', () => {
  for (const [locale, shopLabel, bannerText] of [
    ['zh-CN', '店铺账号', '正在以「店铺」'],
    ['en-US', 'Shop account', 'Viewing as Shop'],
  ] as const) {
    test(`the super admin views the app as shop0001 and switches back (${locale})`, async () => {
      const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/dashboard/workplace', locale);
      await until(() => menuNames(page)).toEqual(SUPER_ADMIN_MENU);
      expect(await statusOf(page, '/admin/user/list')).toBe(200);

      // User menu → switch roles → shop → shop0001.
      await page.getByTestId('user-menu').click();
      await page.getByTestId('user-view-as').click();
      const form = page.locator('.ant-modal').filter({ has: page.getByTestId('view-as-role-shop') });
      await expect(form).toBeVisible();
      await page.getByTestId('view-as-role-shop').click();
      await pick(page, form, shopLabel, /shop0001/, 'shop0001');
      await form.locator('.ant-modal-footer .ant-btn-primary').click();

      // The page comes back at the shop's home, as the shop: only its menu, and the banner.
      await expect(page.getByTestId('view-as-banner')).toBeVisible();
      await until(() => new URL(page.url()).pathname).toBe('/order/inspect');
      await until(() => menuNames(page)).toEqual(['Inspect', 'order']);
      const banner = (await page.getByTestId('view-as-banner').textContent()) ?? '';
      expect(banner).toContain(bannerText);
      expect(banner).toContain('shop0001');
      expect(banner).toContain('superadmin');
      // The shop's own orders, as the shop sees them.
      await until(() => page.getByTestId('app-layout').locator('.ant-table-row').count()).toBeGreaterThan(0);
      // The server refuses an admin call although the session belongs to a super admin.
      expect(await statusOf(page, '/admin/user/list')).toBe(403);
      const info = await app.apiGet<{ username: string; role: { name: string }; viewAs?: { by: { username: string } } }>(
        page,
        '/admin/user/info',
      );
      expect(info).toMatchObject({ username: 'shop0001', role: { name: 'shop' }, viewAs: { by: { username: 'superadmin' } } });
      // The super admin's screens are refused by the route guard too.
      await page.goto('/system/user');
      await until(() => new URL(page.url()).pathname).toBe('/order/inspect');
      await expect(page.getByTestId('view-as-banner')).toBeVisible();
      // No "switch roles" while viewing: the user menu offers the way back instead.
      await page.getByTestId('user-menu').click();
      await expect(page.getByTestId('user-view-as-end')).toBeVisible();
      expect(await page.getByTestId('user-view-as').count()).toBe(0);
      await escapeFrom(page, page.getByTestId('user-view-as-end'));
      await settledScreenshot(page, `view-as-${locale}`);

      // Switch back: the super admin's home and full menu again.
      await page.getByTestId('view-as-end').click();
      await until(() => new URL(page.url()).pathname).toBe('/dashboard/workplace');
      await until(() => menuNames(page)).toEqual(SUPER_ADMIN_MENU);
      expect(await page.getByTestId('view-as-banner').count()).toBe(0);
      expect(await statusOf(page, '/admin/user/list')).toBe(200);
      await page.context().close();
    });
  }
});
