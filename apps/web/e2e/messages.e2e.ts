// Browser journey of the message box on the demo business: inspector01 records an
// order for shop0001 while shop0001 is signed in in another browser; the shop's bell rises
// without a reload (the poll), the popover lists the new order, the item opens the order's
// details and is read, and "all read" clears the badge; "view more" opens the full page. The
// inspector's box holds the demo's suspicious-order todos. Screenshots in both languages.
import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, pick, publishAnnouncement, settledScreenshot, test, until, useApp } from './harness.ts';

const app = useApp({ DEMO: '1' });

/** The poll runs every 15 s; a new item must show within 30 s. */
const WITHIN_POLL = 30_000;

const badgeCount = async (page: Page): Promise<number> =>
  Number((await page.getByTestId('message-badge').getAttribute('data-count')) ?? NaN);

interface Unread {
  message: number;
  notice: number;
  todo: number;
  total: number;
}

const box = (page: Page) => page.getByTestId('message-box');

/** Error toasts on screen (a red "200 OK" showed when an item was opened). */
const errorToasts = (page: Page) => page.locator('.ant-message-notice .ant-message-error').allTextContents();

/** The tab the box shows. */
const activeTab = (page: Page) => box(page).locator('.ant-tabs-tab-active [data-testid^="message-tab-"]').getAttribute('data-testid');

/** The first kind with unread items: the tab the box opens on. */
const firstUnread = (unread: Unread) => (['message', 'notice', 'todo'] as const).find((kind) => unread[kind] > 0);

async function openBox(page: Page): Promise<void> {
  await page.getByTestId('message-bell').click();
  await expect(box(page)).toBeVisible();
}

test.describe('the message box', () => {
  test('a new order reaches the signed-in shop without a reload, leads to the order, and all read clears the badge', async () => {
    const shop = await app.signedIn('shop0001', DEMO_PASSWORD, '/order/inspect');
    const before = await app.apiGet<Unread>(shop, '/admin/message/unread');
    await until(() => badgeCount(shop)).toBe(before.total);
    // The demo gave the shop messages about its recent orders and recharges.
    expect((await app.apiGet<{ total: number }>(shop, '/admin/message/list?type=message')).total).toBeGreaterThan(0);
    // A mark on the window: a reload would wipe it.
    await shop.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

    const inspector = await app.signedIn('inspector01', DEMO_PASSWORD, '/order/inspect');
    await inspector.getByTestId('order-create').click();
    const form = inspector.locator('.ant-modal').filter({ has: inspector.getByTestId('order-form-objWechat') });
    await expect(form).toBeVisible();
    const objWechat = `wx_msg_${Date.now().toString(36)}`;
    await form.getByTestId('order-form-objWechat').fill(objWechat);
    await form.getByTestId('order-form-objWechatName').fill('消息目标');
    await form.getByTestId('order-form-objClientName').fill('目标所属店铺乙');
    await form.getByTestId('order-form-mac').fill('aa:bb:cc:dd:ee:43');
    await pick(inspector, form, '游戏', '王者荣耀');
    await pick(inspector, form, '检测结果', '作弊');
    await pick(inspector, form, '客户店铺', /shop0001/, 'shop0001');
    await expect(form.getByTestId('order-form-amount')).not.toHaveValue('');
    await form.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect(form).toBeHidden();
    const created = inspector.locator('.ant-table-row').filter({ hasText: objWechat });
    await expect(created).toBeVisible();
    const code = ((await created.locator('[data-testid^="order-detail-"]').getAttribute('data-testid')) ?? '').replace('order-detail-', '');
    expect(code).not.toBe('');

    // The shop's bell rises by itself.
    await until(() => badgeCount(shop), WITHIN_POLL).toBe(before.total + 1);
    expect(await shop.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

    await openBox(shop);
    const item = box(shop)
      .locator('[data-testid^="message-item-"]')
      .filter({ hasText: `新订单 ${code}` });
    await expect(item).toBeVisible();
    expect(await item.getAttribute('data-read')).toBe('false');
    expect(await item.textContent()).toMatch(/作弊/);
    expect(await item.textContent()).toMatch(/秒前|分钟前|几秒前/);
    await settledScreenshot(shop, 'messages-box-zh-CN');

    // The item opens the order's details on the order screen and is read.
    await item.click();
    await until(() => new URL(shop.url()).pathname).toBe('/order/inspect');
    const detail = shop.locator('.ant-modal').filter({ has: shop.getByTestId('order-detail') });
    await expect(detail).toBeVisible();
    // The dialog opens at once; its order arrives with the detail call.
    await expect(detail).toContainText(code);
    await until(() => badgeCount(shop)).toBe(before.total);
    await shop.waitForLoadState('networkidle');
    expect(await errorToasts(shop)).toEqual([]);
    await detail.locator('.ant-modal-close').click();
    await expect(detail).toBeHidden();

    // "All read" on the message tab: the shop has no notices or to-dos, so the badge clears.
    await openBox(shop);
    await shop.getByTestId('message-all-read').click();
    await until(() => badgeCount(shop)).toBe(before.notice + before.todo);
    expect(await app.apiGet<Unread>(shop, '/admin/message/unread')).toMatchObject({ message: 0 });
    expect(before.notice + before.todo).toBe(0);

    // "View more": the full page, read ones included.
    await shop.getByTestId('message-view-more').click();
    await until(() => new URL(shop.url()).pathname).toBe('/user/message');
    const table = shop.getByTestId('message-table');
    await until(() => table.locator('.ant-table-row').count()).toBeGreaterThan(0);
    expect(await table.locator('.ant-table-row').first().textContent()).toContain(code);
    await settledScreenshot(shop, 'messages-page-zh-CN');
    await shop.context().close();
    await inspector.context().close();
  });

  test('an inspector finds the demo’s suspicious orders as to-dos and marks some read on the full page (en-US)', async () => {
    const page = await app.signedIn('inspector01', DEMO_PASSWORD, '/order/inspect', 'en-US');
    const before = await app.apiGet<Unread>(page, '/admin/message/unread');
    expect(before.todo).toBeGreaterThan(0);
    await until(() => badgeCount(page)).toBe(before.total);
    await openBox(page);
    // The box opens on the first tab with unread items.
    await until(() => activeTab(page)).toBe(`message-tab-${firstUnread(before)}`);
    await page.getByTestId('message-tab-todo').click();
    const first = box(page).locator('[data-testid^="message-item-"]').first();
    await expect(first).toHaveText(/^Re-check order/);
    expect(await first.textContent()).toMatch(/ago/);
    await settledScreenshot(page, 'messages-box-en-US');

    await page.getByTestId('message-view-more').click();
    await until(() => page.url()).toContain('/user/message?type=todo');
    const table = page.getByTestId('message-table');
    await until(() => table.locator('.ant-table-row').count()).toBeGreaterThan(1);
    const rows = table.locator('.ant-table-row');
    await rows.nth(0).locator('.ant-checkbox-input').check();
    await rows.nth(1).locator('.ant-checkbox-input').check();
    await page.getByTestId('message-batch-read').click();
    await until(() => badgeCount(page)).toBe(before.total - 2);
    await expect(table.locator('.ant-table-row').first()).toContainText('Read');
    await settledScreenshot(page, 'messages-page-en-US');
    await page.context().close();
  });

  test('a shop reads a new announcement from its notice, in the box and on the full page, with no error toast', async () => {
    const title = `春节营业时间 ${Date.now().toString(36)}`;
    await publishAnnouncement(app.server.url, title, '<p>初七开工，<strong>初八</strong>起正常检测。<script>alert(1)</script></p>');

    const shop = await app.signedIn('shop0002', DEMO_PASSWORD, '/order/inspect');
    const before = await app.apiGet<Unread>(shop, '/admin/message/unread');
    expect(before.notice).toBeGreaterThan(0);
    await until(() => badgeCount(shop)).toBe(before.total);
    await openBox(shop);
    await until(() => activeTab(shop)).toBe(`message-tab-${firstUnread(before)}`);
    await shop.getByTestId('message-tab-notice').click();
    const notice = box(shop).locator('[data-testid^="message-item-"]').filter({ hasText: title });
    await expect(notice).toBeVisible();
    await notice.click();
    // The announcement reader (the modal that holds the announcement's content).
    const reader = shop.locator('.ant-modal').filter({ has: shop.getByTestId('announcement-content') });
    await expect(reader).toBeVisible();
    await until(() => reader.locator('.ant-modal-title').textContent()).toBe(title);
    expect(await reader.getByTestId('announcement-content').innerHTML()).toBe('<p>初七开工，<strong>初八</strong>起正常检测。</p>');
    expect(await reader.textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await until(() => badgeCount(shop)).toBe(before.total - 1);
    await settledScreenshot(shop, 'messages-announcement-zh-CN');
    await reader.locator('.ant-modal-close').click();
    await expect(reader).toBeHidden();

    // The full page opens it the same way.
    await shop.goto('/user/message?type=notice');
    const row = shop.getByTestId('message-table').locator('.ant-table-row').filter({ hasText: title });
    await expect(row).toBeVisible();
    await row.locator('[data-testid^="message-open-"]').click();
    await expect(reader).toBeVisible();
    await until(() => reader.locator('.ant-modal-title').textContent()).toBe(title);
    await shop.waitForLoadState('networkidle');
    expect(await errorToasts(shop)).toEqual([]);
    await shop.context().close();
  });
});
