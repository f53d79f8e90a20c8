// Browser journey on the demo business (DEMO=1): visits are recorded on every route change, public
// pages included, and show in the overview on the data-analysis page; the monitor shows today's
// figures and its chart. Screenshots visits-* and monitor-* in zh-CN and en-US, one dark, one at 390 px.
import type { MonitorData, VisitOverview } from '@clearplay/contract';
import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, chartsCutAtSides, expect, newContext, screenshot, test, until, useApp } from './harness.ts';

const app = useApp({ DEMO: '1' });

const countOf = (ranks: { name: string; count: number }[], name: string) => ranks.find((r) => r.name === name)?.count ?? 0;

/** Opens a screen through the side menu (an in-app route change, as a user makes it). */
async function viaMenu(page: Page, group: string, item: string, url: RegExp): Promise<void> {
  const menu = page.locator('.ant-menu').first();
  const entry = menu.getByRole('menuitem', { name: item, exact: true });
  if (!(await entry.isVisible())) await menu.getByText(group, { exact: true }).click();
  await entry.click();
  await page.waitForURL(url);
}

/** Every chart of the data-analysis page: the orders section's, then the visits'. */
const ANALYSIS_CHARTS = [
  'analysis-result-chart',
  'analysis-game-chart',
  'analysis-shop-chart',
  'visits-daily-chart',
  'visits-top-pages-chart',
  'visits-top-referrers-chart',
  'visits-top-events-chart',
];

/** No chart of the data-analysis page cuts a label at its sides (given 5 s to draw and settle). */
async function expectChartsWhole(page: Page, screen: string): Promise<void> {
  await chartsDrawn(page, ANALYSIS_CHARTS);
  await until(() => chartsCutAtSides(page, screen, ANALYSIS_CHARTS), 5_000).toEqual([]);
}

/** The charts drew: a canvas inside each chart box. */
async function chartsDrawn(page: Page, testIds: string[]): Promise<void> {
  for (const id of testIds) await until(() => page.getByTestId(id).locator('canvas').count(), 30_000).toBeGreaterThan(0);
}

test.describe('visit statistics and the monitor', () => {
  test('anonymous visits to the public pages are counted', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await context.newPage();
    const views = () =>
      app.server.db().prepare("select count(*) as n from page_views where user_id is null and path = '/linkstore'").get() as { n: number };
    const before = views().n;
    await page.goto('/');
    await page.getByTestId('public-nav-linkstore').click();
    await page.waitForURL(/\/linkstore/);
    await until(() => views().n).toBe(before + 1);
    const row = app.server.db().prepare("select referrer from page_views where path = '/linkstore' order by id desc limit 1").get() as {
      referrer: string;
    };
    expect(row.referrer).toBe('/');
    await context.close();
  });

  test('a super admin’s navigation shows in the overview on the data-analysis page', async () => {
    const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/dashboard/workplace');
    const before = await app.apiGet<VisitOverview>(page, '/admin/visit-stats/overview');
    // Each route change wrote a page view of the super admin, the role screen's naming the log screen it came from.
    const mine = (path: string) =>
      (
        app.server
          .db()
          .prepare("select count(*) as n from page_views v join users u on u.id = v.user_id where u.username = 'superadmin' and v.path = ?")
          .get(path) as { n: number }
      ).n;
    const logBefore = mine('/system/log');
    const inspectBefore = mine('/order/inspect');
    await viaMenu(page, '系统管理', '操作日志', /\/system\/log/);
    await viaMenu(page, '系统管理', '角色管理', /\/system\/role/);
    await viaMenu(page, '系统管理', '操作日志', /\/system\/log/);
    await viaMenu(page, '检测管理', '检测记录', /\/order\/inspect/);
    await until(() => mine('/system/log')).toBe(logBefore + 2);
    await until(() => mine('/order/inspect')).toBe(inspectBefore + 1);
    const fromLog = app.server
      .db()
      .prepare("select referrer from page_views where path = '/system/role' order by id desc limit 1")
      .get() as {
      referrer: string;
    };
    expect(fromLog.referrer).toBe('/system/log');
    await until(async () => (await app.apiGet<VisitOverview>(page, '/admin/visit-stats/overview')).today.pv).toBeGreaterThanOrEqual(
      before.today.pv + 4,
    );
    const after = await app.apiGet<VisitOverview>(page, '/admin/visit-stats/overview');
    expect(countOf(after.topPages, '/order/inspect')).toBeGreaterThan(countOf(before.topPages, '/order/inspect'));

    await viaMenu(page, '数据可视化', '数据分析', /\/visualization\/data-analysis/);
    await chartsDrawn(page, ['visits-daily-chart', 'visits-top-pages-chart', 'visits-top-referrers-chart', 'visits-top-events-chart']);
    // The orders section above it: the demo's orders by result, game and shop, from the order counters.
    await chartsDrawn(page, ['analysis-result-chart', 'analysis-game-chart', 'analysis-shop-chart']);
    const shown = Number(
      (await page.getByTestId('visits-today-pv').locator('.ant-statistic-content-value').textContent())?.replace(/,/g, ''),
    );
    // The screen read the overview after this visit's own page view (or just before it).
    expect(shown).toBeGreaterThanOrEqual(after.today.pv);
    await screenshot(page, 'visits-zh-CN');
    await expectChartsWhole(page, 'data analysis (zh-CN, 1440)');

    await viaMenu(page, '仪表盘', '实时监控', /\/dashboard\/monitor/);
    const monitor = await app.apiGet<MonitorData>(page, '/admin/monitor');
    await chartsDrawn(page, ['monitor-hourly-chart']);
    await until(async () =>
      Number((await page.getByTestId('monitor-today-count').locator('.ant-statistic-content-value').textContent())?.replace(/,/g, '')),
    ).toBe(monitor.todayCount);
    await expect(page.getByTestId('monitor-online')).toContainText('superadmin');
    expect(monitor.onlineStaff.map((s) => s.username)).toContain('superadmin');
    await screenshot(page, 'monitor-zh-CN');

    // Dark mode: the charts are drawn again on ECharts' dark theme.
    await page.getByTestId('theme-switch').click();
    await until(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await chartsDrawn(page, ['monitor-hourly-chart']);
    await screenshot(page, 'monitor-zh-CN-dark');
    await page.getByTestId('theme-switch').click();
    await until(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.context().close();
  });

  test('both screens in English, and at 390 px wide', async () => {
    const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/visualization/data-analysis', 'en-US');
    await chartsDrawn(page, ['visits-daily-chart', 'visits-top-pages-chart']);
    await expect(page.getByTestId('visit-stats')).toContainText('Top referrers');
    await screenshot(page, 'visits-en-US');
    await expectChartsWhole(page, 'data analysis (en-US, 1440)');
    await viaMenu(page, 'Dashboard', 'Monitor', /\/dashboard\/monitor/);
    await chartsDrawn(page, ['monitor-hourly-chart']);
    await expect(page.getByTestId('monitor-page')).toContainText('Staff online');
    await screenshot(page, 'monitor-en-US');

    await page.setViewportSize({ width: 390, height: 844 });
    await chartsDrawn(page, ['monitor-hourly-chart']);
    // The chart follows its box down to the phone's width.
    await until(() =>
      page
        .getByTestId('monitor-hourly-chart')
        .locator('canvas')
        .first()
        .evaluate((c) => c.getBoundingClientRect().width),
    ).toBeLessThan(390);
    await screenshot(page, 'monitor-en-US-390');
    await page.goto('/visualization/data-analysis');
    await chartsDrawn(page, ['visits-daily-chart']);
    await screenshot(page, 'visits-en-US-390');
    await expectChartsWhole(page, 'data analysis (en-US, 390)');
    await page.context().close();
  });
});
