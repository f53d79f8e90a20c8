// Browser journey of the user centre and settings on the demo business: shop0001,
// signed in in two browsers, finds its profile, subscription, balance, ledger, sessions and
// sign-ins in the user centre; in the settings it changes its password and chooses English;
// its other browser is signed out (the logged-out dialog, without any click there), and a
// fresh Chinese browser signs in with the new password and is shown English. Screenshots in
// both languages.
import {
  allowProblems,
  chooseOption,
  DEMO_PASSWORD,
  expect,
  login,
  newContext,
  settledScreenshot,
  test,
  until,
  useApp,
} from './harness.ts';

const app = useApp({ DEMO: '1' });

const NEW_PASSWORD = 'Shop#2026';

test.describe('the user centre and settings', () => {
  test('a shop reads its account, changes its password and language; its other browser is signed out', async () => {
    const other = await app.signedIn('shop0001', DEMO_PASSWORD, '/order/inspect');
    const page = await app.signedIn('shop0001', DEMO_PASSWORD, '/order/inspect');

    // The user menu leads to the user centre.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-info').click();
    await until(() => new URL(page.url()).pathname).toBe('/user/info');
    await expect(page.getByTestId('account-profile')).toContainText('shop0001');
    await expect(page.getByTestId('account-balance')).toHaveText(/¥/);
    await until(() => page.getByTestId('account-ledger').locator('.ant-table-row').count()).toBeGreaterThan(0);
    await expect(page.getByTestId('account-sessions').locator('.ant-list-item')).toHaveCount(2);
    await until(() => page.getByTestId('account-logins').locator('.ant-table-row').count()).toBeGreaterThan(1);
    await settledScreenshot(page, 'account-info-zh-CN');

    // The settings: a wrong current password is refused and changes nothing.
    // Provoked: the wrong password is refused (400); the browsers signed out on the way find out
    // from their next message poll (401).
    allowProblems(/HTTP 400 POST \/api\/admin\/account\/password/, /HTTP 401 GET \/api\/admin\/message\/unread/);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-setting').click();
    await until(() => new URL(page.url()).pathname).toBe('/user/setting');
    await page.getByTestId('account-old-password').fill('wrong-password');
    await page.getByTestId('account-new-password').fill(NEW_PASSWORD);
    await page.getByTestId('account-confirm-password').fill(NEW_PASSWORD);
    await page.getByTestId('account-password-save').click();
    await expect(page.locator('.ant-message-notice', { hasText: '当前密码不正确' }).first()).toBeVisible();

    await page.getByTestId('account-old-password').fill(DEMO_PASSWORD);
    await page.getByTestId('account-password-save').click();
    await expect(page.locator('.ant-message-notice', { hasText: '其他 1 个会话已退出登录' }).first()).toBeVisible();
    // This browser stays signed in…
    await expect(page.getByTestId('app-layout')).toBeVisible();
    // …the other one is told, by itself (its message poll), that it was signed out.
    await expect(other.locator('.ant-modal-confirm-title', { hasText: '您已退出登录' })).toBeVisible({ timeout: 30_000 });

    // Language: English, saved on the server; the screen switches at once.
    await page.getByTestId('account-locale').click();
    await chooseOption(page, 'English');
    await page.getByTestId('account-save').click();
    await expect(page.locator('.ant-message-notice', { hasText: 'Saved' }).first()).toBeVisible();
    await settledScreenshot(page, 'account-setting-en-US');

    // A fresh Chinese browser: the new password signs in, and the saved language applies.
    const context = await newContext(app.browser, app.server.url, 'zh-CN');
    const fresh = await context.newPage();
    await fresh.goto('/login');
    await login(fresh, 'shop0001', NEW_PASSWORD);
    await expect(fresh.getByTestId('app-layout')).toBeVisible();
    await fresh.goto('/user/info');
    await expect(fresh.getByTestId('account-profile')).toContainText('Username');
    expect(await fresh.evaluate(() => localStorage.getItem('locale'))).toBe('en-US');
    await expect(fresh.getByTestId('account-sessions').locator('.ant-list-item')).toHaveCount(2);
    await settledScreenshot(fresh, 'account-info-en-US');

    // Sign out the other sessions from the user centre: the first browser is signed out too.
    await fresh.getByTestId('account-end-others').click();
    await expect(fresh.getByTestId('account-sessions').locator('.ant-list-item')).toHaveCount(1);
    await expect(page.locator('.ant-modal-confirm-title')).toBeVisible({ timeout: 30_000 });
    await page.context().close();
    await other.context().close();
    await context.close();
  });

  test('the settings screen in Chinese', async () => {
    const page = await app.signedIn('inspector01', DEMO_PASSWORD, '/user/setting');
    await expect(page.getByTestId('account-nickname')).not.toHaveValue('');
    expect(await page.getByTestId('account-shop').count()).toBe(0);
    await settledScreenshot(page, 'account-setting-zh-CN');
    await page.context().close();
  });

  test('an inspector with no chat ID and no phone saves a new nickname (decision 0084)', async () => {
    // inspector01 is the account the first start seeds, without either.
    const page = await app.signedIn('inspector01', DEMO_PASSWORD, '/user/setting');
    await expect(page.getByTestId('account-nickname')).not.toHaveValue('');
    expect(await page.getByTestId('account-wechat').inputValue()).toBe('');
    expect(await page.getByTestId('account-phone').inputValue()).toBe('');
    await page.getByTestId('account-nickname').fill('夜班检测员');
    await page.getByTestId('account-save').click();
    await expect(page.locator('.ant-message-notice', { hasText: '已保存' }).first()).toBeVisible();
    expect(await page.locator('.ant-form-item-explain-error').count()).toBe(0);
    expect(await page.locator('.ant-message-notice .ant-message-error').count()).toBe(0);
    expect((await app.apiGet<{ nickname: string }>(page, '/admin/account/profile')).nickname).toBe('夜班检测员');
    await page.context().close();
  });
});
