// Browser journey of the layout on the demo business (DEMO=1): the settings drawer and every
// setting in it (dark, colour weak, top menu, hidden navbar with the floating button, a
// custom theme colour whose shades reach the buttons and the menu, menu width, hidden tab bar),
// the settings surviving a reload before the first paint, copy and reset, the server menu on
// and off with the role guard following it, and the mobile layout at 390 px.
import type { Locator, Page } from '@playwright/test';
import {
  ADMIN_PASSWORD,
  allowProblems,
  DEMO_PASSWORD,
  escapeFrom,
  expect,
  newContext,
  settledScreenshot,
  test,
  until,
  useApp,
} from './harness.ts';
import { RoleName, serverMenuFor, type ServerMenuEntry } from '@clearplay/contract/constants';
import { THEME_COLOR_PRESETS } from '../src/config/settings.ts';

const app = useApp({ DEMO: '1' });

const rootState = (page: Page) =>
  page.evaluate(() => ({
    theme: document.documentElement.getAttribute('data-theme'),
    filter: document.documentElement.style.filter,
    primary: document.documentElement.style.getPropertyValue('--cp-primary-6'),
    primary1: document.documentElement.style.getPropertyValue('--cp-primary-1'),
  }));

async function openDrawer(page: Page): Promise<Locator> {
  const drawer = page.getByTestId('settings-drawer');
  if (!(await drawer.isVisible())) {
    const float = page.getByTestId('settings-float');
    await ((await float.isVisible()) ? float : page.getByTestId('settings-open')).click();
  }
  await expect(drawer).toBeVisible();
  return drawer;
}

async function closeDrawer(page: Page): Promise<void> {
  await escapeFrom(page, page.getByTestId('settings-drawer'));
}

const checked = (drawer: Locator, key: string) => drawer.getByTestId(`settings-${key}`).getAttribute('aria-checked');

async function toggle(drawer: Locator, key: string, on: boolean): Promise<void> {
  const control = drawer.getByTestId(`settings-${key}`);
  if ((await control.getAttribute('aria-checked')) !== String(on)) await control.click();
  await until(() => checked(drawer, key)).toBe(String(on));
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

test.describe('the settings drawer, as the super admin on the order screen', () => {
  let page: Page;

  test('opens from the navbar with every setting', async () => {
    page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/order/inspect');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await expect(page.getByTestId('order-table').locator('.ant-table-row')).toHaveCount(20);
    const drawer = await openDrawer(page);
    for (const key of [
      'theme',
      'themeColor',
      'colorWeak',
      'navbar',
      'menu',
      'topMenu',
      'hideMenu',
      'menuCollapse',
      'footer',
      'tabBar',
      'menuFromServer',
      'menuWidth',
    ])
      await until(() => drawer.getByTestId(`settings-${key}`).count(), 5_000).toBeGreaterThan(0);
    // Spec §9: the menu width's number input is 80 px wide, 220 by default.
    const width = drawer.getByTestId('settings-menuWidth');
    expect(await width.evaluate((el) => (el.closest('.ant-input-number') as HTMLElement).getBoundingClientRect().width)).toBe(80);
    expect(await drawer.locator('.ant-input-number input').inputValue()).toBe('220');
    expect(await drawer.getByTestId('settings-shades').locator('span').count()).toBe(10);
    await settledScreenshot(page, 'layout-settings-drawer');
  });

  test('dark theme', async () => {
    const drawer = await openDrawer(page);
    await drawer.getByTestId('settings-theme').getByText('暗黑').click();
    await until(async () => (await rootState(page)).theme).toBe('dark');
    await until(() => page.locator('.app-navbar').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(20, 20, 20)');
    await settledScreenshot(page, 'layout-settings-dark');
    await drawer.getByTestId('settings-theme').getByText('亮色').click();
    await until(async () => (await rootState(page)).theme).toBe('light');
  });

  test('colour weak: an 80% invert filter on the page', async () => {
    const drawer = await openDrawer(page);
    await toggle(drawer, 'colorWeak', true);
    await until(async () => (await rootState(page)).filter).toBe('invert(80%)');
    await settledScreenshot(page, 'layout-settings-colour-weak');
    await toggle(drawer, 'colorWeak', false);
    await until(async () => (await rootState(page)).filter).toBe('');
  });

  test('top menu: the menu moves to the navbar and the side menu is un-collapsed', async () => {
    const drawer = await openDrawer(page);
    await toggle(drawer, 'menuCollapse', true);
    await toggle(drawer, 'topMenu', true);
    await until(() => checked(drawer, 'menuCollapse')).toBe('false');
    await closeDrawer(page);
    await expect(page.getByTestId('top-menu')).toBeVisible();
    expect(await page.getByTestId('app-sider').count()).toBe(0);
    await expect(page.getByTestId('top-menu').getByText('检测管理')).toBeVisible();
    await settledScreenshot(page, 'layout-settings-top-menu');
    await toggle(await openDrawer(page), 'topMenu', false);
    await expect(page.getByTestId('app-sider')).toBeVisible();
  });

  test('hidden navbar: the floating settings button is the way in', async () => {
    expect(await page.getByTestId('settings-float').count()).toBe(0);
    await toggle(await openDrawer(page), 'navbar', false);
    await closeDrawer(page);
    expect(await page.locator('.app-navbar').count()).toBe(0);
    await expect(page.getByTestId('settings-float')).toBeVisible();
    // What the navbar offered stays in reach: the bell and the user menu (with log out) float with it.
    const floating = page.getByTestId('floating-actions');
    expect(await floating.getByTestId('message-bell').isVisible()).toBe(true);
    await floating.getByTestId('user-menu').click();
    await expect(page.getByTestId('logout')).toBeVisible();
    await escapeFrom(page, page.getByTestId('logout'));
    await settledScreenshot(page, 'layout-settings-no-navbar');
    await page.getByTestId('settings-float').click();
    const drawer = await openDrawer(page);
    await toggle(drawer, 'navbar', true);
    await expect(page.getByTestId('settings-float')).toHaveCount(0);
  });

  test('custom theme colour: its 10 shades on the CSS variables, the buttons and the menu', async () => {
    const drawer = await openDrawer(page);
    // antd's ColorPicker: open it, pick a preset, then type a colour into its hex field.
    const trigger = drawer.getByTestId('settings-themeColor-trigger');
    await trigger.click();
    const presets = page.locator('.ant-color-picker-presets-color');
    await expect(presets).toHaveCount(THEME_COLOR_PRESETS.length);
    // The default, #165DFF, is the first preset and the checked one.
    expect(await presets.first().getAttribute('class')).toContain('ant-color-picker-presets-color-checked');
    await presets.nth(THEME_COLOR_PRESETS.indexOf('#13C2C2')).click();
    await until(async () => (await rootState(page)).primary).toBe('#13c2c2');
    expect(await trigger.textContent()).toMatch(/#13c2c2/i);
    const hex = page.locator('.ant-color-picker-hex-input input');
    await hex.fill('722ED1');
    await until(async () => (await rootState(page)).primary).toBe('#722ed1');
    // #722ED1 is a preset too: the panel marks it.
    await expect(page.locator('.ant-color-picker-presets-color-checked')).toHaveCount(1);
    expect(await presets.nth(THEME_COLOR_PRESETS.indexOf('#722ED1')).getAttribute('class')).toContain('checked');
    await settledScreenshot(page, 'layout-settings-colour-picker');
    await trigger.click();
    await expect(page.locator('.ant-color-picker-presets')).toBeHidden();
    expect((await rootState(page)).primary1).toBe('#f9f0ff');
    // The drawer shows the 10 shades it made.
    expect(
      await drawer
        .getByTestId('settings-shades')
        .locator('span')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe(rgb('#f9f0ff'));
    await closeDrawer(page);
    const primaryButton = page.locator('.ant-btn-primary').first();
    await until(() => primaryButton.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb('#722ed1'));
    const selected = page.getByTestId('side-menu').locator('.ant-menu-item-selected');
    await until(() => selected.evaluate((el) => getComputedStyle(el).color)).toBe(rgb('#722ed1'));
    // The selected item's background is the palette's first shade, as antd's token says.
    await until(() => selected.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb('#f9f0ff'));
    await settledScreenshot(page, 'layout-settings-colour');
  });

  test('menu width', async () => {
    const drawer = await openDrawer(page);
    const input = drawer.locator('.ant-input-number input');
    await input.fill('300');
    await input.press('Tab');
    await closeDrawer(page);
    await until(() => page.getByTestId('app-sider').evaluate((el) => el.getBoundingClientRect().width)).toBe(300);
    await settledScreenshot(page, 'layout-settings-menu-width');
  });

  test('hidden tab bar', async () => {
    expect(await page.locator('.app-tab-bar').count()).toBe(1);
    await toggle(await openDrawer(page), 'tabBar', false);
    await closeDrawer(page);
    await expect(page.locator('.app-tab-bar')).toHaveCount(0);
    await settledScreenshot(page, 'layout-settings-no-tab-bar');
  });

  test('the settings survive a reload, in place before the first paint', async () => {
    await toggle(await openDrawer(page), 'colorWeak', true);
    await (await openDrawer(page)).getByTestId('settings-theme').getByText('暗黑').click();
    await closeDrawer(page);
    // What <html> carries when the parser reaches #root: boot.js has run, no module yet.
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        if (!document.getElementById('root')) return;
        observer.disconnect();
        const root = document.documentElement;
        (window as unknown as { __atRoot: unknown }).__atRoot = {
          theme: root.getAttribute('data-theme'),
          filter: root.style.filter,
          primary: root.style.getPropertyValue('--cp-primary-6'),
          react: document.getElementById('root')?.childElementCount ?? 0,
        };
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    await expect(page.getByTestId('app-layout')).toBeVisible();
    const atRoot = await page.evaluate(() => (window as unknown as { __atRoot: unknown }).__atRoot);
    // Dark shades of #722ED1 (antd's dark algorithm): shade 6 is #642ab5.
    expect(atRoot).toEqual({ theme: 'dark', filter: 'invert(80%)', primary: '#642ab5', react: 0 });
    await until(() => page.getByTestId('app-sider').evaluate((el) => el.getBoundingClientRect().width)).toBe(300);
    expect(await page.locator('.app-tab-bar').count()).toBe(0);
    await settledScreenshot(page, 'layout-settings-reloaded');
  });

  test('copy settings gives JSON; reset restores the defaults', async () => {
    const drawer = await openDrawer(page);
    await drawer.getByTestId('settings-copy').click();
    await expect(page.getByText('配置已复制到剪贴板')).toBeVisible();
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as Record<string, unknown>;
    expect(copied).toMatchObject({
      theme: 'dark',
      colorWeak: true,
      themeColor: '#722ED1',
      menuWidth: 300,
      tabBar: false,
      menuFromServer: false,
    });
    await drawer.getByTestId('settings-reset').click();
    await until(() => rootState(page)).toMatchObject({ theme: 'light', filter: '', primary: '#165dff' });
    await closeDrawer(page);
    await until(() => page.getByTestId('app-sider').evaluate((el) => el.getBoundingClientRect().width)).toBe(220);
    expect(await page.locator('.app-tab-bar').count()).toBe(1);
    await page.reload();
    await expect(page.getByTestId('app-layout')).toBeVisible();
    expect(await rootState(page)).toMatchObject({ theme: 'light', filter: '', primary: '#165dff' });
  });

  test('a tab keeps its screen as it was when another tab is shown; the tabs survive a reload', async () => {
    const tabBar = page.locator('.app-tab-bar');
    const table = page.getByTestId('order-table');
    await expect(table.locator('.ant-table-row')).toHaveCount(20);
    // A selected row and a scrolled page: neither is in the URL.
    await table.locator('.ant-table-row').nth(1).locator('.ant-checkbox-input').check();
    await page.evaluate(() => window.scrollTo(0, 400));
    await tabBar.getByText('工作台').click();
    await until(() => new URL(page.url()).pathname).toBe('/dashboard/workplace');
    // As a person would: the workplace is on screen (its figures loaded) before the next tab is clicked.
    await expect(page.getByTestId('workplace')).toBeVisible();
    await expect(page.locator('[data-testid="workplace"] .ant-skeleton')).toHaveCount(0);
    await tabBar.getByText('检测记录').click();
    await until(() => new URL(page.url()).pathname).toBe('/order/inspect');
    expect(await table.locator('.ant-table-row').nth(1).locator('.ant-checkbox-input').isChecked()).toBe(true);
    await settledScreenshot(page, 'layout-settings-tab-kept');
    await page.reload();
    await expect(page.getByTestId('app-layout')).toBeVisible();
    await until(() => tabBar.locator('.ant-tabs-tab').allTextContents()).toEqual(['工作台', '检测记录']);
  });

  test('the exception pages: from the menu, and from the router when a route fails', async () => {
    const menu = page.getByTestId('side-menu');
    await menu.getByTestId('menu-Exception403').click();
    await expect(page.getByTestId('exception-403')).toBeVisible();
    await menu.getByTestId('menu-Exception500').click();
    await expect(page.getByTestId('exception-500')).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page.getByTestId('not-found')).toBeVisible();
    // A screen whose code cannot load (a deploy replaced it): the router's error boundary shows the 500 page.
    allowProblems(/console error: TypeError: Failed to fetch dynamically imported module: .*\/assets\/LogsPage-/);
    await page.route(/\/assets\/LogsPage-[^/]+\.js$/, (route) => route.abort('failed'));
    await page.goto('/system/log');
    await expect(page.getByTestId('exception-500')).toBeVisible();
    await settledScreenshot(page, 'layout-settings-exception-500');
    await page.unroute(/\/assets\/LogsPage-[^/]+\.js$/);
    await page.goto('/order/inspect');
    await expect(page.getByTestId('order-table')).toBeVisible();
  });

  test('menu from server: "loading" then "success"; off again; a failed load says "error"', async () => {
    let drawer = await openDrawer(page);
    const menuCall = page.waitForRequest((request) => request.url().endsWith('/api/menu') && request.method() === 'POST');
    await drawer.getByTestId('settings-menuFromServer').click();
    await menuCall;
    await expect(page.getByText('菜单加载成功')).toBeVisible();
    await until(() => checked(drawer, 'menuFromServer')).toBe('true');
    await closeDrawer(page);
    const menu = page.getByTestId('side-menu');
    for (const name of ['Workplace', 'Inspect', 'User', 'Log', 'Role', 'Dict'])
      await expect(menu.getByTestId(`menu-${name}`)).toHaveCount(1);
    await settledScreenshot(page, 'layout-settings-server-menu', { showToasts: true });
    // Every screen of the server menu (the menu's names and their pages: docs/product.md "The back office") is a real page.
    const leaves = (entries: readonly ServerMenuEntry[]): ServerMenuEntry[] =>
      entries.flatMap((entry) => (entry.children ? leaves(entry.children) : [entry]));
    const screens = leaves(serverMenuFor(RoleName.SUPER_ADMIN));
    expect(screens.map((entry) => entry.path)).toEqual(expect.arrayContaining(['/dashboard/workplace', '/form/order', '/exception/403']));
    for (const entry of screens) {
      await menu.getByTestId(`menu-${entry.name}`).click();
      await until(() => new URL(page.url()).pathname).toBe(entry.path);
      await until(() => page.locator('.app-content').innerText()).not.toBe('');
      // not the guard's refusal nor the not-found page, except where the menu names those pages
      if (!entry.path.startsWith('/exception/')) expect(await page.locator('.ant-result-403, .ant-result-404').count(), entry.path).toBe(0);
    }
    drawer = await openDrawer(page);
    await toggle(drawer, 'menuFromServer', false);
    // A failed load: the message says so and the setting stays off.
    await page.route('**/api/menu', (route) => route.abort('connectionrefused'));
    await drawer.getByTestId('settings-menuFromServer').click();
    await expect(page.getByText('菜单加载失败')).toBeVisible();
    await until(() => checked(drawer, 'menuFromServer')).toBe('false');
    await page.unroute('**/api/menu');
    await closeDrawer(page);
  });
});

test.describe('navbar hidden', () => {
  test('a shop logs out from the floating user menu and opens the bell, at 1440 and 390 wide', async () => {
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const page = await app.signedIn('shop0001', DEMO_PASSWORD, '/order/inspect');
      await page.setViewportSize(size);
      const drawer = await openDrawer(page);
      await toggle(drawer, 'navbar', false);
      await closeDrawer(page);
      const floating = page.getByTestId('floating-actions');
      await expect(floating).toBeVisible();
      await floating.getByTestId('message-bell').click();
      await expect(page.getByTestId('message-box')).toBeVisible();
      await page.keyboard.press('Escape');
      await floating.getByTestId('user-menu').click();
      await page.getByTestId('logout').click();
      await until(() => new URL(page.url()).pathname).toBe('/login');
      await page.context().close();
    }
  });
});

test.describe('the server menu limits the role guard', () => {
  test('a shop with the server menu on is sent from a route outside it to its first menu screen', async () => {
    const page = await app.signedIn('shop0001', DEMO_PASSWORD, '/order/inspect');
    const drawer = await openDrawer(page);
    await drawer.getByTestId('settings-menuFromServer').click();
    await expect(page.getByText('菜单加载成功')).toBeVisible();
    await closeDrawer(page);
    const menu = page.getByTestId('side-menu');
    await expect(menu.getByTestId('menu-Inspect')).toHaveCount(1);
    expect(await menu.getByTestId('menu-User').count()).toBe(0);
    // The list the guard follows is the server's, kept for the session.
    const list = await page.evaluate(async () => {
      const res = await fetch('/api/menu', { method: 'POST', headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
      return ((await res.json()) as { data: { children?: { name: string }[] }[] }).data.flatMap((group) =>
        (group.children ?? []).map((c) => c.name),
      );
    });
    expect(list).toEqual(['Inspect']);
    await page.goto('/system/user');
    await until(() => new URL(page.url()).pathname).toBe('/order/inspect');
    await expect(page.getByTestId('order-table')).toBeVisible();
    await settledScreenshot(page, 'layout-settings-server-menu-guard', { showToasts: true });
    // Logout clears the server menu with the session: signed in again, the guard asks the server anew.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await until(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await until(() => new URL(page.url()).pathname).toBe('/login');
    const menuAgain = page.waitForRequest((request) => request.url().endsWith('/api/menu'));
    await page.getByTestId('login-username').fill('shop0001');
    await page.getByTestId('login-password').fill(DEMO_PASSWORD);
    await page.getByTestId('login-submit').click();
    await menuAgain;
    await until(() => new URL(page.url()).pathname).toBe('/order/inspect');
    await page.context().close();
  });
});

test.describe('mobile, 390 px wide', () => {
  test('the side menu is a drawer from the navbar; the order table scrolls sideways', async () => {
    const context = await newContext(app.browser, app.server.url);
    await context.addInitScript(() => {
      // Only in the app's own documents: a blank or sandboxed frame may not touch storage.
      if (location.protocol.startsWith('http') && !localStorage.getItem('locale')) localStorage.setItem('locale', 'zh-CN');
    });
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/login');
    await page.getByTestId('login-username').fill('superadmin');
    await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('app-layout')).toBeVisible();
    await page.goto('/order/inspect');
    await expect(page.getByTestId('order-table').locator('.ant-table-row')).toHaveCount(20);
    expect(await page.getByTestId('app-layout').getAttribute('data-device')).toBe('mobile');
    expect(await page.getByTestId('app-sider').count()).toBe(0);
    // Nothing but the table's own scroller is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const scroller = page.getByTestId('order-table').locator('.ant-table-content, .ant-table-body').first();
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await settledScreenshot(page, 'layout-settings-mobile-orders');
    await page.getByTestId('menu-drawer-open').click();
    const drawer = page.getByTestId('menu-drawer');
    await expect(drawer).toBeVisible();
    await settledScreenshot(page, 'layout-settings-mobile-menu');
    await drawer.getByTestId('menu-User').click();
    await until(() => new URL(page.url()).pathname).toBe('/system/user');
    await expect(drawer).toBeHidden();
    await context.close();
  });
});
