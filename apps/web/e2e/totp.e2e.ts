// Browser journey of two-step verification (decision 0091) on the demo business: inspector01
// (a demo account: exempt, and its settings say so) turns it on in the user settings (QR code,
// the key, a confirming code, ten recovery codes shown once), signs out, signs in with the
// password and the app's code, signs out again and signs in with a recovery code, which then
// no longer works. Codes are computed here with the same TOTP library as the server.
import { Secret, TOTP } from 'otpauth';
import type { Page } from '@playwright/test';
import { allowProblems, DEMO_PASSWORD, expect, login, newContext, test, until, useApp } from './harness.ts';

const app = useApp({ DEMO: '1' });

/** The code an authenticator app shows for `secret`, `offsetMs` from now. */
const codeOf = (secret: string, offsetMs = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetMs });

async function signOut(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await page.waitForURL(/\/login/);
}

test.describe('two-step verification', () => {
  test('enrol in the settings, sign out, sign in with a code, then with a recovery code', async () => {
    const page = await app.signedIn('inspector01', DEMO_PASSWORD, '/user/setting');
    const card = page.getByTestId('account-second-factor');
    await expect(card).toContainText('这是演示账号：无需两步验证。');

    // Turn it on: the QR code and the key; a wrong code is refused, the app's code confirms.
    // Provoked: the wrong codes are refused (400), in the settings and at sign-in.
    allowProblems(/HTTP 400 POST \/api\/admin\/account\/second-factor\/confirm/, /HTTP 400 POST \/api\/admin\/user\/login\/second-factor/);
    await page.getByTestId('account-second-factor-enable').click();
    await expect(card.getByRole('img', { name: '验证器应用的二维码' })).toBeVisible();
    const secret = ((await page.getByTestId('account-second-factor-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const wrong = codeOf(secret) === '000000' ? '111111' : '000000';
    await page.getByTestId('account-second-factor-code').fill(wrong);
    await page.getByTestId('account-second-factor-confirm').click();
    await expect(card).toContainText('验证码错误');
    await page.getByTestId('account-second-factor-code').fill(codeOf(secret));
    await page.getByTestId('account-second-factor-confirm').click();

    // Ten recovery codes, once, with a copy button.
    await expect(page.getByTestId('recovery-code')).toHaveCount(10);
    const recoveryCodes = (await page.getByTestId('recovery-code').allTextContents()).map((c) => c.trim());
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await expect(page.getByTestId('recovery-codes-copy').isVisible()).resolves.toBe(true);
    await page.getByTestId('account-second-factor-codes-saved').click();
    await expect(page.getByTestId('account-second-factor-on')).toContainText('剩余 10 个恢复码');

    // Signed out, the password alone no longer signs in: the code step comes next.
    await signOut(page);
    await login(page, 'inspector01', DEMO_PASSWORD);
    await expect(page.getByTestId('login-code')).toBeVisible();
    expect(await page.getByTestId('login-second-factor').textContent()).toContain('请输入验证器应用中显示的 6 位验证码');
    // The confirming code's 30 seconds are used up: the app's next code (clocks drift by one step either way).
    await page.getByTestId('login-code').fill(codeOf(secret, 30_000));
    await page.getByTestId('login-code-submit').click();
    await expect(page.getByTestId('app-layout')).toBeVisible();

    // And with a recovery code ("use a recovery code").
    await signOut(page);
    await login(page, 'inspector01', DEMO_PASSWORD);
    await page.getByTestId('login-use-recovery').click();
    await page.getByTestId('login-recovery-code').fill(recoveryCodes[0]!);
    await page.getByTestId('login-code-submit').click();
    await expect(page.getByTestId('app-layout')).toBeVisible();
    await page.goto('/user/setting');
    await expect(page.getByTestId('account-second-factor-on')).toContainText('剩余 9 个恢复码');

    // A recovery code works once.
    const context = await newContext(app.browser, app.server.url, 'zh-CN');
    const other = await context.newPage();
    await other.goto('/login');
    await login(other, 'inspector01', DEMO_PASSWORD);
    await other.getByTestId('login-use-recovery').click();
    await other.getByTestId('login-recovery-code').fill(recoveryCodes[0]!);
    await other.getByTestId('login-code-submit').click();
    await until(() => other.getByTestId('login-error').textContent()).toBe('验证码错误');
    await context.close();
    await page.context().close();
  });
});
