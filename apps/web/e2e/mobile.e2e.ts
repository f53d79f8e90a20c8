// Browser journey "every screen at 390 px" on the demo business: superadmin and
// shop0001, on a 390 × 844 phone viewport, open every screen of the route table their role may
// open (public screens too; a path with a parameter gets a demo value). On each screen:
// nothing but an element's own scroller is wider than the phone (the page never scrolls
// sideways), the layout is in its mobile mode without the side menu, and the menu drawer opens
// from the navbar and closes again. Then every overlay of e2e/overlays.ts (modals, drawers,
// popovers, delete confirms) is opened on its screen: it lies within the phone's width, the page
// does not scroll sideways, its form fields stack one per row, whole, and its action buttons
// show and take a tap. Screenshots: mobile-*.png of a few screens and overlays, both languages.
import type { Page } from '@playwright/test';
import { RoleName } from '@clearplay/contract/constants';
import {
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
  demoParams,
  escapeFrom,
  expect,
  screenRoutes,
  settledScreenshot,
  test,
  useApp,
  visit,
} from './harness.ts';
import { closeOverlay, overlayScreens, overlaysOf, phoneProblems } from './overlays.ts';

const app = useApp({ DEMO: '1' });

const WIDTH = 390;

/** Screens whose phone layout goes into docs/screenshots (the README's mobile row). */
const SHOTS: Record<string, string> = {
  '/dashboard/workplace': 'mobile-workplace',
  '/system/user': 'mobile-system-user',
  '/system/dict': 'mobile-system-dict',
  '/user/info': 'mobile-user-info',
  '/form/order': 'mobile-form-order',
};

/** Overlays whose phone layout goes into docs/screenshots, as mobile-overlay-<name>-<locale>.png. */
const OVERLAY_SHOTS = new Set(['user-edit', 'order-detail', 'announcement-publish', 'ledger-drawer']);

/** A phone-sized context in `locale`, signed in as `username`. */
async function onPhone(username: string, password: string, locale: 'zh-CN' | 'en-US'): Promise<Page> {
  const page = await app.signedIn(username, password, '/user/info', locale);
  await page.setViewportSize({ width: WIDTH, height: 844 });
  return page;
}

/** What on `page` is wider than the phone: the page itself, as `path: width`; [] when nothing is. */
async function overflow(page: Page, path: string): Promise<string[]> {
  const width = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
  return width > WIDTH ? [`${path}: the page is ${width} px wide`] : [];
}

/** Every screen of `role` at 390 px: the problems found, and the screens visited. */
async function sweep(page: Page, role: string, locale: 'zh-CN' | 'en-US', shots = true): Promise<{ bad: string[]; visited: string[] }> {
  const bad: string[] = [];
  const visited: string[] = [];
  for (const { path, inLayout } of screenRoutes(role, demoParams(app.server))) {
    await visit(page, path);
    visited.push(path);
    bad.push(...(await overflow(page, path)));
    if (inLayout) {
      const layout = page.getByTestId('app-layout');
      if ((await layout.getAttribute('data-device')) !== 'mobile') bad.push(`${path}: the layout is not in its mobile mode`);
      if ((await page.getByTestId('app-sider').count()) !== 0) bad.push(`${path}: the side menu shows beside the screen`);
      // The menu is a drawer from the navbar, on every screen.
      await page.getByTestId('menu-drawer-open').click();
      const drawer = page.getByTestId('menu-drawer');
      await expect(drawer).toBeVisible();
      await escapeFrom(page, drawer);
    }
    const shot = SHOTS[path];
    if (shots && shot !== undefined) await settledScreenshot(page, `${shot}-${locale}`);
  }
  return { bad, visited };
}

test.describe('every screen at 390 px', () => {
  test('superadmin, in Chinese: no screen is wider than the phone; the menu is a drawer everywhere', async () => {
    test.setTimeout(300_000);
    const page = await onPhone('superadmin', ADMIN_PASSWORD, 'zh-CN');
    const { bad, visited } = await sweep(page, RoleName.SUPER_ADMIN, 'zh-CN');
    expect(visited).toEqual(expect.arrayContaining(['/system/user', '/order/inspect', '/dashboard/workplace', '/', '/linkstore']));
    expect(bad).toEqual([]);
    await page.context().close();
  });

  test('superadmin in English, and shop0001: the same on every screen they may open', async () => {
    test.setTimeout(300_000);
    const admin = await onPhone('superadmin', ADMIN_PASSWORD, 'en-US');
    const english = await sweep(admin, RoleName.SUPER_ADMIN, 'en-US');
    await admin.context().close();
    const shopPage = await onPhone('shop0001', DEMO_PASSWORD, 'zh-CN');
    const shop = await sweep(shopPage, RoleName.SHOP, 'zh-CN', false);
    await shopPage.context().close();
    expect(shop.visited).toContain('/order/inspect');
    expect(shop.visited).not.toContain('/system/user');
    expect([...english.bad, ...shop.bad]).toEqual([]);
  });

  test('every overlay of superadmin and shop0001, in both languages, fits the phone', async () => {
    test.setTimeout(600_000);
    const bad: string[] = [];
    const opened: string[] = [];
    const runs = [
      { username: 'superadmin', password: ADMIN_PASSWORD, role: RoleName.SUPER_ADMIN, locale: 'zh-CN' as const },
      { username: 'superadmin', password: ADMIN_PASSWORD, role: RoleName.SUPER_ADMIN, locale: 'en-US' as const },
      { username: 'shop0001', password: DEMO_PASSWORD, role: RoleName.SHOP, locale: 'en-US' as const },
    ];
    for (const run of runs) {
      const page = await onPhone(run.username, run.password, run.locale);
      const screens = overlayScreens();
      for (const overlay of overlaysOf(run.role)) {
        const where = `${run.username} ${run.locale} ${overlay.path} ${overlay.name}`;
        try {
          await screens.ready(page, overlay);
          const element = await overlay.open(page);
          opened.push(`${run.username} ${overlay.name}`);
          bad.push(...(await phoneProblems(page, overlay, element, WIDTH)).map((line) => `${run.username} ${run.locale} ${line}`));
          if (run.role === RoleName.SUPER_ADMIN && OVERLAY_SHOTS.has(overlay.name))
            await settledScreenshot(page, `mobile-overlay-${overlay.name}-${run.locale}`);
          await closeOverlay(page, overlay, element);
        } catch (error) {
          // One overlay that does not open or close is reported with the others, not alone.
          bad.push(`${where}: ${String(error).split('\n')[0]}`);
          await page.keyboard.press('Escape');
          screens.failed();
        }
      }
      await page.context().close();
    }
    expect(opened).toEqual(
      expect.arrayContaining(['superadmin user-edit', 'superadmin ledger-recharge', 'shop0001 order-detail', 'shop0001 menu-drawer']),
    );
    expect(bad).toEqual([]);
  });
});
