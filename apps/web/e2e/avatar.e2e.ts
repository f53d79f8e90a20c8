// Browser journey of the avatar (decision 0062) on the demo business: shop0001, with no
// avatar (its initials show), uploads one in the user centre with the house image uploader; it
// is saved at once and shows in the navbar's user menu; after a reload both still show it. A
// picture over the avatar's 2 MB limit is refused before anything is sent. In English the shop
// removes it (initials again) and uploads another.
// Screenshots: docs/screenshots/account-avatar-{zh-CN,en-US}.png.
import type { CurrentUser } from '@clearplay/contract';
import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, settledScreenshot, test, until, useApp } from './harness.ts';
import { png } from './png.ts';

const app = useApp({ DEMO: '1' });

const navbarImage = (page: Page) => page.getByTestId('navbar-avatar').locator('img');
const fileInput = (page: Page) => page.getByTestId('account-avatar').locator('input[type=file]');
const upload = (page: Page, name: string, buffer: Buffer) => fileInput(page).setInputFiles({ name, mimeType: 'image/png', buffer });

/** The user centre of shop0001 in `locale`, its profile loaded. */
async function userCentre(locale: 'zh-CN' | 'en-US'): Promise<Page> {
  const page = await app.signedIn('shop0001', DEMO_PASSWORD, '/user/info', locale);
  await expect(page.getByTestId('account-profile')).toContainText('shop0001');
  return page;
}

/** Removes the current avatar through the uploader, if there is one. */
async function removeAvatar(page: Page): Promise<void> {
  const item = page.getByTestId('account-avatar').locator('.ant-upload-list-item');
  if ((await item.count()) === 0) return;
  await item.first().hover();
  await item.first().locator('.anticon-delete').click();
  await expect(navbarImage(page)).toHaveCount(0);
}

test.describe('the avatar', () => {
  test('shop0001 uploads an avatar in the user centre, sees it in the navbar, and after a reload still', async () => {
    const page = await userCentre('zh-CN');
    await removeAvatar(page); // the demo gives shop0001 none; this keeps the journey whole if run again
    // No picture: the navbar shows the initials.
    await until(() => page.getByTestId('navbar-avatar').textContent()).not.toBe('');
    expect(await navbarImage(page).count()).toBe(0);

    // Too big for an avatar (2 MB): refused before sending.
    await upload(page, 'huge.png', png(900, 900, 'noise'));
    await expect(page.locator('.ant-message-notice').last()).toContainText('2 MB');
    expect((await app.apiGet<CurrentUser>(page, '/admin/user/info')).avatar).toBe('');

    // A real picture: uploaded, saved, shown in the user centre and the navbar.
    await upload(page, 'me.png', png(160, 160, 'gradient'));
    await until(() => navbarImage(page).getAttribute('src')).toMatch(/^\/upload\/files\/avatar\/\d+\/[0-9a-f]{32}$/);
    const src = (await navbarImage(page).getAttribute('src'))!;
    const me = await app.apiGet<CurrentUser>(page, '/admin/user/info');
    expect(me.avatar).toBe(src);
    expect(src).toContain(`/avatar/${me.id}/`);
    await until(() => page.getByTestId('account-avatar').locator(`img[src="${src}"]`).count()).toBeGreaterThan(0);
    const served = await fetch(`${app.server.url}${src}`);
    expect(served.status).toBe(200);

    await page.reload();
    await expect(page.getByTestId('app-layout')).toBeVisible();
    await until(() => navbarImage(page).getAttribute('src')).toBe(src);
    await until(() => page.getByTestId('account-avatar').locator(`img[src="${src}"]`).count()).toBeGreaterThan(0);
    await settledScreenshot(page, 'account-avatar-zh-CN', { show: page.getByTestId('account-profile') });
    await page.context().close();
  });

  test('in English: removed (initials again), then another one uploaded', async () => {
    const page = await userCentre('en-US');
    await expect(page.getByTestId('account-avatar')).toContainText('at most 2 MB');
    await removeAvatar(page);
    expect((await app.apiGet<CurrentUser>(page, '/admin/user/info')).avatar).toBe('');
    await upload(page, 'again.png', png(128, 128, 'gradient'));
    await until(() => navbarImage(page).getAttribute('src')).toMatch(/^\/upload\/files\/avatar\/\d+\/[0-9a-f]{32}$/);
    const src = (await navbarImage(page).getAttribute('src'))!;
    expect((await app.apiGet<CurrentUser>(page, '/admin/user/info')).avatar).toBe(src);
    await page.mouse.move(0, 0); // off the picture card, whose hover shows its actions
    await settledScreenshot(page, 'account-avatar-en-US', { show: page.getByTestId('account-profile') });
    await page.context().close();
  });
});
