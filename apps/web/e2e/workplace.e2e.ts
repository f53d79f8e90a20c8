// Browser journey on the demo business: the super admin's workplace shows the same
// figures as GET /admin/workplace; its cards lead to the order and user lists pre-filtered; an
// announcement published with bold text and a list appears in the workplace without a reload,
// reads back formatted and is deleted after the spec's confirm; the charts draw in light and
// dark; the screen works at 390 px wide; the chart chunk stays within its budget (decision 0073)
// and its tooltips still work. Screenshots workplace-*.png.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { AnnouncementItem, WorkplaceData } from '@clearplay/contract';
import { formatMoney } from '@clearplay/contract/constants';
import { ADMIN_PASSWORD, escapeFrom, expect, repoRoot, screenshot, settledScreenshot, test, until, useApp } from './harness.ts';
import { workplaceEnUS } from '../src/locales/screens/workplace.en-US.ts';

const app = useApp({ DEMO: '1' });

const openWorkplace = async (locale: 'zh-CN' | 'en-US' = 'zh-CN') => {
  const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/dashboard/workplace', locale);
  await expect(page.getByTestId('stat-total-count-value')).toBeVisible();
  return page;
};

/** Both charts have drawn a canvas with something on it. */
async function chartsDrawn(page: Page): Promise<void> {
  for (const id of ['workplace-daily-chart', 'workplace-results-chart']) {
    const canvas = page.getByTestId(id).locator('canvas');
    await until(() => canvas.count()).toBeGreaterThan(0);
    await until(() =>
      canvas.first().evaluate((c: HTMLCanvasElement) => {
        const ctx = c.getContext('2d');
        if (!ctx || c.width === 0) return 0;
        const { data } = ctx.getImageData(0, 0, c.width, c.height);
        let painted = 0;
        for (let i = 3; i < data.length; i += 4 * 16) if (data[i]! > 0) painted++;
        return painted;
      }),
    ).toBeGreaterThan(50);
  }
}

/** Nothing of the workplace sticks out of a 390 px screen (wide tables scroll inside their cards). */
const fitsWidth = (page: Page) =>
  page.getByTestId('workplace').evaluate((root) => {
    const tables = [...root.querySelectorAll('.ant-table-content, .ant-table-body')];
    return [...root.querySelectorAll('*')].every(
      (el) => el.getBoundingClientRect().right <= 390.5 || tables.some((t) => t !== el && t.contains(el)),
    );
  });

test.describe('the workplace, as the super admin on the demo business', () => {
  test('shows the figures the API answers, with charts, latest orders and announcements', async () => {
    const page = await openWorkplace();
    const w = await app.apiGet<WorkplaceData>(page, '/admin/workplace');
    expect(w.total.count).toBeGreaterThan(4500);
    const text = (id: string) => page.getByTestId(`${id}-value`).textContent();
    await until(() => text('stat-total-count')).toBe(String(w.total.count));
    expect(await text('stat-pending')).toBe(String(w.pending.count));
    expect(await text('stat-renewals')).toBe(String(w.renewals.count));
    expect(await text('stat-month-count')).toBe(String(w.month.current.count));
    expect(await text('stat-balance')).toBe(formatMoney(w.balance, 'zh-CN'));
    expect(await text('stat-month-amount')).toBe(formatMoney(w.month.current.amount, 'zh-CN'));
    expect(await text('stat-total-amount')).toBe(formatMoney(w.total.amount, 'zh-CN'));
    // What is under the figures renders just after them (decision 0117).
    await until(() => page.getByTestId('workplace-latest-table').locator('.ant-table-row').count()).toBe(w.latestOrders.length);
    expect(await page.getByTestId('workplace-announcements').getByTestId('announcement-item').count()).toBe(w.announcements.length);
    expect(w.announcements.length).toBeGreaterThan(0);
    await chartsDrawn(page);
    await screenshot(page, 'workplace-zh-CN');
    await page.close();
  });

  test('a card click opens the order list filtered to the pending orders, another the user list by renewal', async () => {
    const page = await openWorkplace();
    const w = await app.apiGet<WorkplaceData>(page, '/admin/workplace');
    await page.getByTestId('stat-pending').click();
    await until(() => page.url()).toContain('/order/inspect?result=3');
    const table = page.getByTestId('order-table');
    await expect(table.locator('.ant-table-row')).toHaveCount(Math.min(20, w.pending.count));
    const rows = await table.locator('.ant-table-row').allTextContents();
    expect(rows.every((r) => r.includes('可疑'))).toBe(true);
    await expect(table.locator('.ant-pagination')).toContainText(String(Math.ceil(w.pending.count / 20)));

    await page.goto('/dashboard/workplace');
    await expect(page.getByTestId('stat-renewals')).toBeVisible();
    await page.getByTestId('stat-renewals').click();
    await until(() => page.url()).toContain('/system/user?subscriptionState=expiring');
    await expect(page.locator('.search-table').first()).toContainText('即将到期');
    await page.close();
  });

  test('publishes an announcement with bold text and a list; it appears without a reload, formatted, and is deleted after the confirm', async () => {
    const page = await openWorkplace('en-US');
    const title = `Maintenance window ${Date.now() % 100000}`;
    await page.getByTestId('workplace-publish').click();
    const form = page.locator('.ant-modal').filter({ has: page.getByTestId('announcement-title') });
    await expect(form.getByTestId('announcement-editor')).toBeVisible();
    await form.getByTestId('announcement-title').fill(title);
    const editor = form.getByTestId('announcement-editor');
    await editor.click();
    await page.keyboard.type('Service pauses on ');
    await form.getByTestId('editor-bold').click();
    await page.keyboard.type('Sunday night');
    await form.getByTestId('editor-bold').click();
    await page.keyboard.press('Enter');
    await form.getByTestId('editor-bullet').click();
    await page.keyboard.type('Orders recorded before 22:00 are checked');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Imports resume at 06:00');
    await settledScreenshot(page, 'workplace-publish-en-US', { showToasts: true });
    await form.locator('.ant-modal-footer .ant-btn-primary').click();

    // No reload: the workplace's query is invalidated and the list shows it.
    const list = page.getByTestId('workplace-announcements');
    await expect(list).toContainText(title, { timeout: 20_000 });
    const stored = (await app.apiGet<{ list: AnnouncementItem[] }>(page, '/admin/announcement/list?pageSize=20')).list.find(
      (a) => a.title === title,
    );
    expect(stored?.content).toBe(
      '<p>Service pauses on <strong>Sunday night</strong></p><ul><li><p>Orders recorded before 22:00 are checked</p></li><li><p>Imports resume at 06:00</p></li></ul>',
    );

    await list.getByText(title).click();
    const view = page.getByTestId('announcement-content');
    await until(() => view.locator('strong').textContent()).toBe('Sunday night');
    expect(await view.locator('li').count()).toBe(2);
    await escapeFrom(page, view);

    const item = list.getByTestId('announcement-item').filter({ hasText: title });
    await item.getByTestId('announcement-delete').click();
    await expect(page.locator('.ant-modal-confirm')).toContainText('This action cannot be undone. Are you sure you want to delete?');
    await page.getByTestId('confirm-ok').click();
    await expect(list).not.toContainText(title);
    await page.close();
  });

  test('with the navbar hidden, the floating buttons cover no part of the announcements card (1440 and 390 wide)', async () => {
    const page = await openWorkplace();
    await page.getByTestId('settings-open').click();
    const drawer = page.getByTestId('settings-drawer');
    await expect(drawer).toBeVisible();
    await drawer.getByTestId('settings-navbar').click();
    await until(() => drawer.getByTestId('settings-navbar').getAttribute('aria-checked')).toBe('false');
    await escapeFrom(page, drawer);
    const card = page.getByTestId('workplace-announcements');
    const float = page.getByTestId('settings-float');
    const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await expect(float).toBeVisible();
      // The card's bottom, then its top, at the bottom of the window where the buttons float.
      for (const block of ['end', 'start'] as const) {
        await card.evaluate((el, b) => el.scrollIntoView({ block: b }), block);
        if (block === 'start') await page.evaluate(() => window.scrollBy(0, -(window.innerHeight - 120)));
        const [cardBox, floatBox] = [await card.boundingBox(), await float.boundingBox()];
        expect(overlap(cardBox!, floatBox!), `${size.width} px, card ${block}: ${JSON.stringify([cardBox, floatBox])}`).toBe(false);
      }
    }
    await page.close();
  });

  test('draws the charts in light and dark, in both languages, and fits a 390 px phone', async () => {
    const page = await openWorkplace('en-US');
    await chartsDrawn(page);
    await screenshot(page, 'workplace-en-US');
    await page.getByTestId('theme-switch').click();
    await until(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await chartsDrawn(page);
    await screenshot(page, 'workplace-en-US-dark');

    await page.setViewportSize({ width: 390, height: 844 });
    await until(() => page.getByTestId('workplace-daily-chart').evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(
      390,
    );
    // The chart follows its box (ResizeObserver), and nothing makes the page scroll sideways.
    await until(() =>
      page
        .getByTestId('workplace-daily-chart')
        .locator('canvas')
        .first()
        .evaluate((c) => c.getBoundingClientRect().width),
    ).toBeLessThanOrEqual(390);
    expect(await fitsWidth(page)).toBe(true);
    await chartsDrawn(page);
    await screenshot(page, 'workplace-en-US-dark-390');
    await page.close();

    const zh = await openWorkplace('zh-CN');
    await zh.setViewportSize({ width: 390, height: 844 });
    await chartsDrawn(zh);
    expect(await fitsWidth(zh)).toBe(true);
    await screenshot(zh, 'workplace-zh-CN-390');
    await zh.close();
  });

  test('loads the chart chunk (at most 175,000 B gzip, decision 0073) and its tooltips show on hover', async () => {
    // The build's figure: the chart chunk(s) no other screen needs, from dist/.vite/manifest.json.
    const run = spawnSync(process.execPath, [join(repoRoot, 'apps/web/scripts/first-load.mjs'), '--page', 'charts'], { encoding: 'utf8' });
    const report = JSON.parse(run.stdout) as { jsGzipBytes: number; budgetBytes: number; files: { file: string }[] };
    expect(report.budgetBytes).toBe(175 * 1000);
    expect(report.jsGzipBytes).toBeGreaterThan(50 * 1024);
    expect(report.jsGzipBytes).toBeLessThanOrEqual(175 * 1000);
    expect(run.status).toBe(0);

    const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/dashboard/workplace', 'en-US');
    const loaded: string[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') loaded.push(new URL(res.url()).pathname);
    });
    await page.reload();
    await chartsDrawn(page);
    // Those are the very files the screen fetched for its charts.
    for (const { file } of report.files) expect(loaded).toContain(`/${file}`);

    // The axis tooltip of the daily chart: both series by name.
    const daily = page.getByTestId('workplace-daily-chart');
    const box = (await daily.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await expect(daily).toContainText(workplaceEnUS['workplace.chart.count']);
    expect(await daily.textContent()).toContain(workplaceEnUS['workplace.chart.amount']);

    // The item tooltip of the results ring: "<result>: <count> (<share>%)".
    const ring = page.getByTestId('workplace-results-chart');
    const r = (await ring.boundingBox())!;
    await page.mouse.move(r.x + r.width / 2 + (Math.min(r.width, r.height) / 2) * 0.58, r.y + r.height / 2);
    await expect(ring).toHaveText(/: \d+ \(\d+(\.\d+)?%\)/);
    await page.close();
  });
});
