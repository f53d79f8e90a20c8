// Browser journeys of system management: users (create with prices, subscribe, renew, disable while the
// user is signed in elsewhere), dictionaries, roles, each visible afterwards in the operation
// log; the house table's density and column settings; screenshots of every screen in both
// languages (docs/screenshots/system-*.png).
import type { Locator, Page } from '@playwright/test';
import {
  ADMIN_PASSWORD,
  allowProblems,
  expect,
  expectNothingClipped,
  pick,
  settledScreenshot as screenshot,
  switchLanguage,
  test,
  until,
  useApp,
} from './harness.ts';

const app = useApp();

const DAY_MS = 24 * 60 * 60 * 1000;

const SHOP = { username: 'e2eshop01', password: 'Shop#2026', nickname: '端到端店铺' };

/** The visible modal whose title contains `title`. */
const modal = (page: Page, title: string | RegExp): Locator =>
  page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

/** A row holding `text` on the screen shown (not in a tab kept alive, hidden, behind it). */
const row = (page: Page, text: string): Locator => page.locator('.ant-table-row:visible').filter({ hasText: text });

const toast = (page: Page, text: string) => expect(page.locator('.ant-message-notice', { hasText: text }).first()).toBeVisible();

/**
 * Filters the operation log by module (chosen by its Chinese name) and expects a row per
 * `contents` fragment: the lines are told in Chinese on a Chinese screen (decision 0097).
 */
async function expectLogged(page: Page, module: string, contents: string[], shot?: string): Promise<void> {
  await page.locator('.ant-menu').getByText('操作日志', { exact: true }).click();
  await page.waitForURL(/\/system\/log/);
  const table = page.getByTestId('log-table');
  await table.locator('#search-system-log_module').click();
  await page.locator('.ant-select-item-option', { hasText: new RegExp(`^${module}$`) }).click();
  await table.getByTestId('search-submit').click();
  for (const content of contents) {
    await expect(row(page, content).first()).toBeVisible();
  }
  // every row shown is of that module
  const modules = await table.locator('.ant-table-row td:first-child').allTextContents();
  expect(modules.length).toBeGreaterThan(0);
  expect(new Set(modules)).toEqual(new Set([module]));
  if (shot) await screenshot(page, shot);
}

const endOf = async (page: Page, username: string): Promise<number> => {
  const value = await page.getByTestId(`user-end-${username}`).getAttribute('data-end');
  expect(value).toBeTruthy();
  return Date.parse(value!);
};

test.describe('user management', () => {
  test('create a shop user with prices, subscribe monthly, renew, history; disable them while they are signed in elsewhere; all in the log', async () => {
    const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/system/user');
    await expect(row(page, 'shop0001')).toBeVisible();
    await screenshot(page, 'system-user-zh-CN');
    await expectNothingClipped(page, 'users (zh-CN, 1440)', page.getByTestId('user-table'));

    // Create: a taken username comes back as a message on the username field.
    allowProblems(/HTTP 409 POST \/api\/admin\/user\/create/);
    await page.getByTestId('user-create').click();
    const form = modal(page, '新建用户');
    await form.getByTestId('user-form-username').fill('shop0001');
    await form.getByTestId('user-form-password').fill(SHOP.password);
    await form.getByTestId('user-form-nickname').fill(SHOP.nickname);
    await pick(page, form, '角色', /^shop/);
    await form.getByTestId('user-form-wechat').fill('wx_e2eshop01');
    await form.getByTestId('user-form-phone').fill('13800138000');
    await form.getByTestId('user-form-defaultPrice').fill('12.5');
    await form.getByTestId('user-form-defaultPriceCheat').fill('30');
    await form.getByTestId('user-form-defaultPriceSuspect').fill('20.05');
    await form.getByTestId('user-form-defaultPriceNotPass').fill('8');
    await screenshot(page, 'system-user-form-zh-CN');
    await form.getByRole('button', { name: /确\s*定/ }).click();
    const usernameItem = form.locator('.ant-form-item').filter({ has: page.getByTestId('user-form-username') });
    await expect(usernameItem.locator('.ant-form-item-explain-error')).toHaveText(/shop0001/);
    await screenshot(page, 'system-user-form-server-error-zh-CN');

    await form.getByTestId('user-form-username').fill(SHOP.username);
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '创建成功');
    await expect(row(page, SHOP.username)).toBeVisible();
    const created = row(page, SHOP.username);
    expect(await created.textContent()).toContain('¥12.50');
    expect(await created.textContent()).toContain('¥20.05');
    expect(await created.textContent()).toContain('未订阅');

    // One dialog serves "new" and every row's "edit": each opening starts from its own record.
    await page.getByTestId(`user-edit-${SHOP.username}`).click();
    const edit = modal(page, /编辑用户/);
    await expect(edit.getByTestId('user-form-nickname')).toHaveValue(SHOP.nickname);
    expect(await edit.getByTestId('user-form-defaultPriceSuspect').inputValue()).toBe('20.05');
    await edit.getByRole('button', { name: /取\s*消/ }).click();
    await expect(edit).toHaveCount(0);
    await page.getByTestId('user-create').click();
    const blank = modal(page, '新建用户');
    await expect(blank).toBeVisible();
    expect(await blank.getByTestId('user-form-nickname').inputValue()).toBe('');
    expect(await blank.getByTestId('user-form-defaultPriceSuspect').inputValue()).toBe('');
    await blank.getByRole('button', { name: /取\s*消/ }).click();
    await expect(blank).toHaveCount(0);

    // Subscribe monthly: the dialog shows the end it will set; the table shows it after.
    await page.getByTestId(`user-subscribe-${SHOP.username}`).click();
    const subscribe = modal(page, '订阅服务');
    await expect(subscribe.getByTestId('subscription-new-end')).toHaveText(/^\d{4}-\d{2}-\d{2} /);
    const before = Date.now();
    await subscribe.getByRole('button', { name: /^订\s*阅$/ }).click();
    await toast(page, '订阅成功');
    await expect(created).toContainText('生效中');
    const firstEnd = await endOf(page, SHOP.username);
    expect(firstEnd - before).toBeGreaterThan(30 * DAY_MS - 60_000);
    expect(firstEnd - before).toBeLessThan(30 * DAY_MS + 60_000);

    // Renew: extends from the current end, ~30 days more.
    await page.getByTestId(`user-subscribe-${SHOP.username}`).click();
    const renew = modal(page, '续费服务');
    await expect(renew.getByTestId('subscription-current-end')).toHaveText(/^\d{4}-\d{2}-\d{2} /);
    await screenshot(page, 'system-user-subscribe-zh-CN');
    await renew.getByRole('button', { name: /^续\s*费$/ }).click();
    await toast(page, '订阅成功');
    await until(() => endOf(page, SHOP.username)).toBeGreaterThan(firstEnd);
    const secondEnd = await endOf(page, SHOP.username);
    expect(Math.abs(secondEnd - firstEnd - 30 * DAY_MS)).toBeLessThan(60_000);

    // The history lists both changes.
    await page.getByTestId(`user-more-${SHOP.username}`).click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByText('订阅记录').click();
    const history = page.getByTestId('subscription-history');
    await expect(history.locator('.ant-table-row')).toHaveCount(2);
    expect(await history.locator('.ant-table-row').allTextContents()).toEqual([
      expect.stringContaining('续费'),
      expect.stringContaining('订阅'),
    ]);
    await screenshot(page, 'system-user-history-zh-CN');
    await history.locator('.ant-drawer-close').click();

    // The shop signs in in a second browser; the admin disables them; their next call ends the session.
    allowProblems(/HTTP 401 POST \/api\/visit-stats\/create/, /HTTP 401 GET \/api\/admin\/message\/unread/);
    const shop = await app.signedIn(SHOP.username, SHOP.password, '/order/inspect');
    // The switch asks first: cancel leaves them enabled; OK disables them.
    await page.getByTestId(`user-status-${SHOP.username}`).click();
    const ask = page.locator('.ant-modal-confirm', { hasText: `停用用户“${SHOP.username}”？` });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: /取\s*消/ }).click();
    await expect(ask).toBeHidden();
    expect(await page.getByTestId(`user-status-${SHOP.username}`).getAttribute('aria-checked')).toBe('true');
    await page.getByTestId(`user-status-${SHOP.username}`).click();
    await ask.getByRole('button', { name: /停\s*用/ }).click();
    await toast(page, '状态设置成功');
    await expect(created).toContainText('e2eshop01');
    expect(await page.getByTestId(`user-status-${SHOP.username}`).getAttribute('aria-checked')).toBe('false');
    // Their next call: this click, unless a call of the page's own (the bell's poll) came first and
    // the dialog already covers the menu (then the click lands on the dialog's mask: `force`).
    await shop.locator('.ant-menu').getByText('检测记录', { exact: true }).click({ force: true });
    const dialog = shop.locator('.ant-modal-confirm-title', { hasText: '您已退出登录' });
    await expect(dialog).toBeVisible();
    await screenshot(shop, 'system-user-disabled-session-zh-CN');
    await shop.context().close();

    await expectLogged(page, '用户', [`用户 ${SHOP.username}`, '已创建，角色 shop', '已续费', '：已停用'], 'system-log-zh-CN');
    await expectNothingClipped(page, 'operation log (zh-CN, 1440)', page.getByTestId('log-table'));
    const logRow = row(page, `用户 ${SHOP.username}`).filter({ hasText: '已创建，角色 shop' }).first();
    await logRow.getByRole('button', { name: /详情/ }).click();
    const detail = page.getByTestId('log-detail');
    await expect(page.getByTestId('log-payload')).toContainText('"username": "e2eshop01"');
    // The password is masked in the recorded payload.
    expect(await page.getByTestId('log-payload').textContent()).not.toContain(SHOP.password);
    expect(await detail.isVisible()).toBe(true);
    await screenshot(page, 'system-log-detail-zh-CN');
    await page.context().close();
  });
});

test.describe('dictionary management', () => {
  test('type and data: create, view data, toggle, delete; the log shows each change', async () => {
    const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/system/dict');
    await expect(row(page, 'order_result')).toBeVisible();
    await screenshot(page, 'system-dict-zh-CN');
    await expectNothingClipped(page, 'dictionary types (zh-CN, 1440)', page.getByTestId('dict-type-table'));

    await page.getByTestId('dict-type-create').click();
    const typeForm = modal(page, '新建字典类型');
    await typeForm.getByTestId('dict-type-form-code').fill('e2e_region');
    await typeForm.getByTestId('dict-type-form-name').fill('测试区域');
    await typeForm.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '字典类型创建成功');
    await expect(row(page, 'e2e_region')).toBeVisible();

    // View data opens the data tab on that type.
    await page.getByTestId('dict-type-view-e2e_region').click();
    await expect(page.getByTestId('dict-data-table')).toBeVisible();
    expect(await page.getByTestId('dict-data-type').textContent()).toContain('e2e_region');

    const addEntry = async (label: string, value: string, listClass: string, parent?: string) => {
      await page.getByTestId('dict-data-create').click();
      const form = modal(page, '新建字典数据');
      await form.getByTestId('dict-data-form-label').fill(label);
      await form.getByTestId('dict-data-form-value').fill(value);
      await pick(page, form, '标签样式', listClass);
      if (parent) {
        const item = form.locator('.ant-form-item').filter({ has: page.locator('label', { hasText: '上级' }) });
        await item.locator('.ant-select').click();
        await page
          .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper', { hasText: parent })
          .click();
      }
      await form.getByRole('button', { name: /确\s*定/ }).click();
      await toast(page, '字典数据创建成功');
      await expect(row(page, value)).toBeVisible();
    };
    await addEntry('华东', 'east', '成功');
    await addEntry('上海', 'shanghai', '警告', '华东');
    expect(await row(page, 'shanghai').textContent()).toContain('华东');
    // The label renders as a tag in its listClass colour.
    expect(await row(page, 'east').locator('.ant-tag').first().getAttribute('class')).toContain('success');
    await screenshot(page, 'system-dict-data-zh-CN');
    await expectNothingClipped(page, 'dictionary data (zh-CN, 1440)', page.getByTestId('dict-data-table'));

    await page.getByTestId('dict-data-status-east').click();
    await toast(page, '字典数据状态设置成功');
    await until(() => page.getByTestId('dict-data-status-east').getAttribute('aria-checked')).toBe('false');

    await page.getByTestId('dict-data-delete-shanghai').click();
    await until(() => page.locator('.ant-modal-confirm-content').textContent()).toBe('此操作不可撤销，确定要删除吗？');
    await page.getByTestId('confirm-ok').click();
    await toast(page, '字典数据删除成功');
    await expect(row(page, 'shanghai')).toHaveCount(0);

    // Back on the types: disable the type, then delete it with its remaining entry.
    await page.getByTestId('dict-tab-types').click();
    await expect(row(page, 'e2e_region')).toContainText('1');
    await page.getByTestId('dict-type-status-e2e_region').click();
    await toast(page, '字典类型状态设置成功');
    await page.getByTestId('dict-type-delete-e2e_region').click();
    await page.getByTestId('confirm-ok').click();
    await toast(page, '字典类型删除成功');
    await expect(row(page, 'e2e_region')).toHaveCount(0);

    await expectLogged(page, '字典', [
      '字典 e2e_region',
      '字典数据 e2e_region/east“华东”',
      '字典数据 e2e_region/shanghai“上海”',
      '已删除，连同 1 条数据',
    ]);
    await page.context().close();
  });
});

test.describe('role management', () => {
  test('create a role with permissions from the tree; built-in roles cannot be deleted; the log shows it', async () => {
    const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/system/role');
    await expect(row(page, 'super_admin')).toBeVisible();
    await screenshot(page, 'system-role-zh-CN');
    expect(await page.getByTestId('role-delete-super_admin').isDisabled()).toBe(true);
    expect(await page.getByTestId('role-delete-shop').isDisabled()).toBe(true);

    await page.getByTestId('role-create').click();
    const form = modal(page, '新建角色');
    await form.getByTestId('role-form-name').fill('auditor');
    await form.getByTestId('role-form-description').fill('审计员：查看订单和操作日志');
    await form.getByTestId('role-form-description-en').fill('Auditor: reads orders and the operation log');
    const tree = form.getByTestId('permission-tree');
    await tree.locator('.ant-tree-treenode', { hasText: '查看订单' }).locator('.ant-tree-checkbox').click();
    await tree.locator('.ant-tree-treenode', { hasText: '操作日志' }).first().locator('.ant-tree-checkbox').click();
    await screenshot(page, 'system-role-form-zh-CN');
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '创建成功');
    await expect(row(page, 'auditor')).toBeVisible();
    expect(await row(page, 'auditor').textContent()).toContain('2 项权限');
    expect(await page.getByTestId('role-delete-auditor').isDisabled()).toBe(false);
    expect(await row(page, 'auditor').textContent()).toContain('审计员：查看订单和操作日志');

    // In English the list reads each role's English description, the new role's too.
    await switchLanguage(page, 'English');
    await expect(row(page, 'auditor')).toContainText('Auditor: reads orders and the operation log');
    expect(await row(page, 'super_admin').textContent()).toContain('Super administrator: every feature');
    await page.getByTestId('role-edit-auditor').click();
    const edit = modal(page, 'Edit role');
    await expect(edit.getByTestId('role-form-description-en')).toHaveValue('Auditor: reads orders and the operation log');
    expect(await edit.getByTestId('role-form-description').inputValue()).toBe('审计员：查看订单和操作日志');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await switchLanguage(page, '简体中文');
    await expect(row(page, 'auditor')).toContainText('审计员：查看订单和操作日志');

    await expectLogged(page, '角色', ['角色 auditor', '已创建，2 项权限']);
    await page.context().close();
  });
});

test.describe('the house table', () => {
  test('search collapses and expands, reset re-queries, density and column settings are remembered per user', async () => {
    const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/system/user');
    const table = page.getByTestId('user-table');
    await expect(row(page, 'inspector01')).toBeVisible();

    // Collapsed: the first row of fields; expanded: all of them.
    const phone = table.locator('#search-system-user_phone');
    expect(await phone.isVisible()).toBe(false);
    await table.getByTestId('search-toggle').click();
    await expect(phone).toBeVisible();

    await table.locator('#search-system-user_username').fill('inspector01');
    await table.getByTestId('search-submit').click();
    await expect(table.locator('.ant-table-row')).toHaveCount(1);
    await table.getByTestId('search-reset').click();
    await until(() => table.locator('.ant-table-row').count()).toBeGreaterThan(1);
    expect(await table.locator('#search-system-user_username').inputValue()).toBe('');

    // Density mini and a hidden column survive a reload.
    await table.getByTestId('table-density').click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByText('迷你').click();
    await table.getByTestId('table-columns').click();
    await page.getByTestId('column-toggle-wechat').click();
    await expect(table.locator('th', { hasText: '微信号' })).toHaveCount(0);
    await screenshot(page, 'system-user-columns-zh-CN');
    const saved = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('table:') && k.endsWith(':system-user')));
    expect(saved).toHaveLength(1);

    await page.reload();
    await expect(row(page, 'inspector01')).toBeVisible();
    expect(await table.locator('th', { hasText: '微信号' }).count()).toBe(0);
    expect(await table.locator('.ant-table-wrapper .search-table-mini, .search-table-mini').count()).toBeGreaterThan(0);
    await page.context().close();
  });
});

test.describe('English screens', () => {
  test('every system screen and a form in en-US', async () => {
    const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/system/user', 'en-US');
    await expect(row(page, 'shop0001')).toBeVisible();
    expect(await page.getByTestId('user-create').textContent()).toContain('New user');
    await screenshot(page, 'system-user-en-US');
    await expectNothingClipped(page, 'users (en-US, 1440)', page.getByTestId('user-table'));
    await page.getByTestId('user-create').click();
    await expect(modal(page, 'New user')).toBeVisible();
    await modal(page, 'New user').getByRole('button', { name: 'OK' }).click();
    await expect(modal(page, 'New user').locator('.ant-form-item-explain-error').first()).toBeVisible();
    expect(await modal(page, 'New user').locator('.ant-form-item-explain-error').allTextContents()).toContain('Please enter Username');
    await screenshot(page, 'system-user-form-en-US');
    await modal(page, 'New user').getByRole('button', { name: 'Cancel' }).click();

    await page.locator('.ant-menu').getByText('Roles', { exact: true }).click();
    await expect(row(page, 'super_admin')).toBeVisible();
    await screenshot(page, 'system-role-en-US');
    await page.getByTestId('role-edit-inspector').click();
    await expect(page.getByTestId('permission-tree')).toContainText('Detection orders');
    await screenshot(page, 'system-role-form-en-US');
    await modal(page, 'Edit role').getByRole('button', { name: 'Cancel' }).click();

    await page.locator('.ant-menu').getByText('Dictionaries', { exact: true }).click();
    await expect(row(page, 'order_result')).toBeVisible();
    await screenshot(page, 'system-dict-en-US');
    await expectNothingClipped(page, 'dictionary types (en-US, 1440)', page.getByTestId('dict-type-table'));
    await page.getByTestId('dict-type-view-order_result').click();
    await expect(page.getByTestId('dict-data-table').locator('.ant-table-row')).toHaveCount(4);
    await screenshot(page, 'system-dict-data-en-US');
    await expectNothingClipped(page, 'dictionary data (en-US, 1440)', page.getByTestId('dict-data-table'));

    await page.locator('.ant-menu').getByText('Operation Log', { exact: true }).click();
    await until(() => page.getByTestId('log-table').locator('.ant-table-row').count()).toBeGreaterThan(0);
    await screenshot(page, 'system-log-en-US');
    await expectNothingClipped(page, 'operation log (en-US, 1440)', page.getByTestId('log-table'));
    await page
      .getByTestId('log-table')
      .locator('.ant-table-row')
      .first()
      .getByRole('button', { name: /Details/ })
      .click();
    await expect(page.getByTestId('log-detail')).toContainText('Log entry');
    await screenshot(page, 'system-log-detail-en-US');

    // On a phone the users table scrolls sideways and still cuts nothing.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/system/user');
    await expect(row(page, 'shop0001')).toBeVisible();
    const content = page.getByTestId('user-table').locator('.ant-table-content');
    expect(await content.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await expectNothingClipped(page, 'users (en-US, 390)', page.getByTestId('user-table'));
    await page.context().close();
  });
});
