// Browser journey "the whole app in English" (decisions 0066/0067) on the demo
// business: superadmin, shop0001 and inspector01, each in en-US, visit every screen of the
// route table their role may open (public screens too; a path with a parameter gets a demo
// value), and the rendered text holds no Chinese character except user data. User data is
// what the database holds (nicknames, chat names, descriptions, remarks…): a Chinese run on
// screen passes only when the demo database holds it, and never when it is a dictionary's
// Chinese label that has an English one (that is what the English reader must see instead).
// Regions that show stored Chinese on purpose (the dictionary screen's Chinese label column)
// carry `data-user-data`. The dictionary screen then shows both labels (screenshot
// dict-en-US), and switching to Chinese re-renders its tags without a reload. Every overlay of
// e2e/overlays.ts (modals, drawers, popovers, delete confirms) is opened too, and what shows
// while it is open is held to the same rule.
// Screenshot: docs/screenshots/dict-en-US.png.
import type { Page } from '@playwright/test';
import { RoleName } from '@clearplay/contract/constants';
import {
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
  demoParams,
  expect,
  screenPaths,
  settle,
  settledScreenshot,
  switchLanguage,
  test,
  until,
  useApp,
  visit,
} from './harness.ts';
import { otherLanguage, userDataOf, visibleText, type UserData } from './language.ts';
import { closeOverlay, overlayScreens, overlaysOf } from './overlays.ts';

const app = useApp({ DEMO: '1' });

/** The user data of the demo database (see e2e/language.ts). */
const userData = (): UserData => userDataOf(app.server.db());

/**
 * What on screen is Chinese and not user data, as `text (run)`; `seen` counts the user data runs
 * that passed. Read again for up to 2 s while something shows (a table re-rendering in its
 * labels), then answered.
 */
async function leftovers(page: Page, data: UserData, seen: { count: number }): Promise<string[]> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const counted = { count: 0 };
    const { texts } = await visibleText(page);
    const found = otherLanguage('en-US', texts, data, counted);
    if (found.length === 0 || Date.now() > deadline) {
      seen.count += counted.count;
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens `path`, waits for its calls to end and its spinners to stop, and answers the Chinese leftovers. */
async function sweep(page: Page, path: string, data: UserData, seen: { count: number }): Promise<string[]> {
  await visit(page, path);
  return (await leftovers(page, data, seen)).map((line) => `${path}: ${line}`);
}

/** Opens each overlay of `role` on its screen and answers the Chinese leftovers shown while it is open. */
async function sweepOverlays(
  page: Page,
  role: string,
  data: UserData,
  seen: { count: number },
): Promise<{ opened: string[]; bad: string[] }> {
  const opened: string[] = [];
  const bad: string[] = [];
  const screens = overlayScreens();
  for (const overlay of overlaysOf(role, false)) {
    const where = `${overlay.path} ${overlay.name}`;
    try {
      // Only ready for the overlay: the screen's own text is the screens' sweep's to check (read here, it was thrown away).
      await screens.ready(page, overlay);
      const element = await overlay.open(page);
      await settle(page);
      opened.push(overlay.name);
      bad.push(...(await leftovers(page, data, seen)).map((line) => `${where}: ${line}`));
      await closeOverlay(page, overlay, element);
    } catch (error) {
      // One overlay that does not open or close is reported with the others, not alone.
      bad.push(`${where}: ${String(error).split('\n')[0]}`);
      screens.failed();
    }
  }
  return { opened, bad };
}

async function sweepAs(
  username: string,
  password: string,
  role: string,
): Promise<{ visited: string[]; opened: string[]; bad: string[]; seen: number }> {
  const data = userData();
  const paths = screenPaths(role, demoParams(app.server));
  const page = await app.signedIn(username, password, '/user/info', 'en-US');
  const bad: string[] = [];
  const seen = { count: 0 };
  for (const path of paths) bad.push(...(await sweep(page, path, data, seen)));
  const overlays = await sweepOverlays(page, role, data, seen);
  await page.context().close();
  return { visited: paths, opened: overlays.opened, bad: [...bad, ...overlays.bad], seen: seen.count };
}

test.describe('the whole app in English', () => {
  test('superadmin: every screen of the route table in en-US shows no Chinese except user data', async () => {
    test.setTimeout(480_000);
    const { visited, opened, bad, seen } = await sweepAs('superadmin', ADMIN_PASSWORD, RoleName.SUPER_ADMIN);
    expect(opened).toEqual(expect.arrayContaining(['user-edit', 'ledger-recharge', 'announcement-publish', 'log-detail', 'order-delete']));
    // The check reads the screens' text: the demo's Chinese user data (nicknames, chat names…) was on them.
    expect(seen).toBeGreaterThan(20);
    expect(visited).toEqual(expect.arrayContaining(['/system/dict', '/order/inspect', '/dashboard/workplace', '/', '/linkstore']));
    expect(visited.some((path) => path.startsWith('/verify/'))).toBe(true);
    expect(bad).toEqual([]);
  });

  test('shop0001 and inspector01: every screen they may open in en-US shows no Chinese except user data', async () => {
    test.setTimeout(480_000);
    const shop = await sweepAs('shop0001', DEMO_PASSWORD, RoleName.SHOP);
    expect(shop.visited).toContain('/order/inspect');
    expect(shop.opened).toEqual(expect.arrayContaining(['order-detail', 'message-box', 'settings-drawer']));
    expect(shop.visited).not.toContain('/system/dict');
    const inspector = await sweepAs('inspector01', DEMO_PASSWORD, RoleName.INSPECTOR);
    expect(inspector.visited).toContain('/user/message');
    expect([...shop.bad, ...inspector.bad]).toEqual([]);
  });

  test('the dictionary screen edits both labels; tags follow a language switch without a reload', async () => {
    test.setTimeout(120_000);
    const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/system/dict', 'en-US');
    await page.getByTestId('dict-type-view-order_result').click();
    const table = page.getByTestId('dict-data-table');
    await until(() => table.locator('tbody tr').count()).toBeGreaterThanOrEqual(4);
    // Both labels side by side: the Chinese one (stored data) and the English one.
    await until(() => table.locator('tbody').innerText()).toContain('Cheating');
    expect(await table.locator('tbody').innerText()).toContain('作弊');

    // Edit the English label of "suspicious"; the dictionary store (tags everywhere) follows.
    await page.getByTestId('dict-data-edit-3').click();
    const form = page.getByTestId('dict-data-form');
    await expect(form.getByTestId('dict-data-form-label-en')).toHaveValue('Suspicious');
    expect(await form.getByTestId('dict-data-form-label').inputValue()).toBe('可疑');
    await form.getByTestId('dict-data-form-label-en').fill('Suspect');
    await form.getByRole('button', { name: 'OK' }).click();
    await until(() => table.locator('tbody').innerText()).toContain('Suspect');
    const entry = await app.apiGet<{ list: { value: string; label: string; labelEn: string }[] }>(page, '/admin/dict/data/order_result');
    expect(entry.list.find((e) => e.value === '3')).toMatchObject({ label: '可疑', labelEn: 'Suspect' });
    await settledScreenshot(page, 'dict-en-US', { show: table });

    // The status filter's select and the list's tags read the store in the reader's language.
    await page.goto('/order/inspect');
    await until(() => page.locator('.ant-table-tbody .ant-tag').count()).toBeGreaterThan(0);
    const tags = () => page.locator('.ant-table-tbody .ant-tag').allInnerTexts();
    await until(async () => (await tags()).some((text) => ['Normal', 'Cheating', 'Suspect', 'Not passed'].includes(text))).toBe(true);
    // Switch to Chinese from the navbar: the same tags change with no page load.
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    await switchLanguage(page, '简体中文');
    await until(async () => (await tags()).some((text) => ['正常', '作弊', '可疑', '未通过'].includes(text))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    await page.context().close();
  });
});
