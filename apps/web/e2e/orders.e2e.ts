// Browser journey of the order inspect screen (the detection records): an
// inspector records an order for shop0001 with evidence images, the amount filled in from the
// shop's price; the shop then finds it in its list, opens "Order Details" (images by kind,
// "No description") and downloads the evidence ZIP. A shop sees no create or delete actions.
// Screenshots: docs/screenshots/orders-list.{zh-CN,en-US}.png, orders-detail.{zh-CN,en-US}.png.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  ADMIN_PASSWORD,
  cleanTmp,
  DEMO_PASSWORD,
  expect,
  pick,
  settledScreenshot as screenshot,
  signInToken,
  test,
  until,
  useApp,
} from './harness.ts';
import { png } from './png.ts';

const app = useApp();
let downloads = '';

test.beforeAll(() => {
  downloads = mkdtempSync(join(tmpdir(), 'clearplay-orders-e2e-'));
});
test.afterAll(() => {
  cleanTmp(downloads);
});

// ── the screen ──

type Locale = 'zh-CN' | 'en-US';

/** A fresh context in `locale`, signed in, on the order inspect screen with its list loaded. */
async function signedIn(username: string, locale: Locale = 'zh-CN'): Promise<Page> {
  const page = await app.signedIn(username, DEMO_PASSWORD, '/order/inspect', locale);
  await expect(page.getByTestId('order-table').locator('.ant-table-tbody')).toBeVisible();
  return page;
}

const row = (page: Page, text: string): Locator => page.locator('.ant-table-row').filter({ hasText: text });
/** The open detail modal. */
const detailModal = (page: Page): Locator => page.locator('.ant-modal').filter({ has: page.getByTestId('order-detail') });
/** The image group of one kind inside the detail modal. */
const images = (page: Page, kind: string): Locator => detailModal(page).getByTestId(`order-images-${kind}`).locator('img');
/** Every <img> of `box` finished loading real pixels. */
const allLoaded = (box: Locator) =>
  box.evaluateAll(
    (imgs) => imgs.length > 0 && imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
  );

/** The file names inside a ZIP, read by `unzip -Z1` (one name per line). */
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const zipEntries = (file: string): string[] =>
  execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A call to the API as `token` (arranging data a person made elsewhere); answers the envelope's data. */
async function call<T>(token: string | null, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app.server.url}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { status: number; msg: string; data: T };
  if (envelope.status !== 200) throw new Error(`${path}: ${envelope.status} ${envelope.msg}`);
  return envelope.data;
}
const tokenOf = (username: string, password: string) => signInToken(app.server.url, username, password);

// shop0001's prices in fen: normal, cheating, failed, suspicious
const PRICES = { default_price: 3800, default_price_cheat: 6600, default_price_not_pass: 2500, default_price_suspect: 4200 };

test.describe('order inspect (detection records)', () => {
  const objWechat = `wx_e2e_${Date.now()}`;
  let code = '';
  // two health certificates and one problem proof
  const cert1 = png(40, 30, [200, 40, 40]);
  const cert2 = png(40, 30, [40, 160, 40]);
  const proof1 = png(48, 32, [40, 40, 200]);
  const uploaded = [cert1, cert2, proof1];

  test('an inspector records an order for shop0001 with images; the amount follows the shop price', async () => {
    const set = Object.keys(PRICES)
      .map((column) => `${column} = @${column}`)
      .join(', ');
    app.server.db().prepare(`UPDATE users SET ${set} WHERE username = 'shop0001'`).run(PRICES);

    const page = await signedIn('inspector01');
    // an inspector creates and imports but does not delete
    expect(await page.getByTestId('order-create').isVisible()).toBe(true);
    expect(await page.getByTestId('order-batch-delete').count()).toBe(0);

    await page.getByTestId('order-create').click();
    const form = page.locator('.ant-modal').filter({ has: page.getByTestId('order-form-objWechat') });
    await expect(form).toBeVisible();
    await form.getByTestId('order-form-objWechat').fill(objWechat);
    await form.getByTestId('order-form-objWechatName').fill('端到端目标');
    await form.getByTestId('order-form-objClientName').fill('目标所属店铺甲');
    await form.getByTestId('order-form-mac').fill('aa:bb:cc:dd:ee:42');
    await pick(page, form, '游戏', '王者荣耀');
    await pick(page, form, '检测结果', '作弊');
    await pick(page, form, '客户店铺', /shop0001/, 'shop0001');
    // the cheating price of shop0001, read-only for an inspector
    await expect(form.getByTestId('order-form-amount')).toHaveValue('66.00');
    await pick(page, form, '检测结果', '正常');
    await expect(form.getByTestId('order-form-amount')).toHaveValue('38.00');

    const upload = async (field: string, files: { name: string; buffer: Buffer }[]) => {
      const box = form.locator(`#${field}`);
      await box.locator('input[type=file]').setInputFiles(files.map((f) => ({ ...f, mimeType: 'image/png' })));
      await expect(box.locator('.ant-upload-list-item-done')).toHaveCount(files.length);
    };
    await upload('certImages', [
      { name: 'cert-1.png', buffer: cert1 },
      { name: 'cert-2.png', buffer: cert2 },
    ]);
    await upload('proofImages', [{ name: 'proof-1.png', buffer: proof1 }]);

    await form.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect(page.locator('.ant-message-notice', { hasText: '创建成功' }).first()).toBeVisible();
    await expect(form).toBeHidden();
    const created = row(page, objWechat);
    await expect(created).toBeVisible();
    expect(await created.textContent()).toContain('¥38.00');
    code = ((await created.locator('[data-testid^="order-detail-"]').getAttribute('data-testid')) ?? '').replace('order-detail-', '');
    expect(code).not.toBe('');
    expect(await created.locator('td').first().textContent()).toBe(code);
    // the inspector may edit what they inspected
    expect(await created.getByTestId(`order-edit-${code}`).isEnabled()).toBe(true);
  });

  test('shop0001 finds the order, opens Order Details and downloads the evidence ZIP; no create or delete', async () => {
    expect(code).not.toBe('');
    const page = await signedIn('shop0001');
    const mine = row(page, objWechat);
    await expect(mine).toBeVisible();
    expect(await mine.textContent()).toContain('¥38.00');
    // a shop exports and downloads; it creates, imports and deletes nothing
    expect(await page.getByTestId('order-create').count()).toBe(0);
    expect(await page.getByTestId('order-batch-delete').count()).toBe(0);
    expect(await mine.getByTestId(`order-delete-${code}`).count()).toBe(0);
    expect(await mine.getByTestId(`order-edit-${code}`).count()).toBe(0);
    expect(await page.locator('.ant-table-thead .ant-checkbox').count()).toBe(0);

    // filtering by the target's WeChat prefix keeps the order
    await page.locator('#search-order-inspect_objWechat').fill(objWechat.slice(0, -3));
    await page.getByTestId('search-submit').click();
    await expect(page.locator('.ant-table-row')).toHaveCount(1);
    await expect(mine).toBeVisible();
    await screenshot(page, 'orders-list.zh-CN');

    await mine.getByTestId(`order-detail-${code}`).click();
    const detail = detailModal(page);
    await until(() => detail.locator('.ant-modal-title').textContent()).toBe('订单详情');
    await expect(detail.getByTestId('order-description')).toContainText('暂无描述');
    await expect(images(page, 'certImages')).toHaveCount(2);
    expect(await images(page, 'proofImages').count()).toBe(1);
    expect(await detail.getByTestId('order-images-personCertImages').count()).toBe(0);
    await until(() => allLoaded(detail.locator('[data-testid^="order-images-"] img'))).toBe(true);
    const text = await detail.textContent();
    for (const expected of [
      code,
      objWechat,
      '端到端目标',
      '王者荣耀',
      'AA-BB-CC-DD-EE-42',
      '目标所属店铺甲',
      '¥38.00',
      '健康证明',
      '问题证明',
      '环境证明',
    ]) {
      expect(text).toContain(expected);
    }
    await screenshot(page, 'orders-detail.zh-CN');

    // a thumbnail opens the preview
    await images(page, 'certImages').first().click();
    await expect(page.locator('.ant-image-preview').first()).toBeVisible();
    // closed with its own close button: an Escape pressed while the preview's portal is still
    // registering reaches the detail modal underneath instead (rc-component portal stack)
    await page.locator('.ant-image-preview-close').first().click();
    await expect(page.locator('.ant-image-preview-open, .ant-image-preview:visible')).toHaveCount(0);
    await expect(detail).toBeVisible();

    // the evidence ZIP: a real zip holding the three images, a summary and the certificate's QR code
    const [download] = await Promise.all([page.waitForEvent('download'), detail.getByTestId('order-detail-download').click()]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const file = join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    const entries = zipEntries(file);
    expect(entries).toContain('verify-qr.png');
    const pictures = entries.filter((name) => name.endsWith('.png') && name !== 'verify-qr.png');
    expect(pictures).toHaveLength(3);
    // one folder per kind: two health certificates, one problem proof
    const folders = pictures.map((name) => name.slice(0, name.lastIndexOf('/')));
    expect(new Set(folders).size).toBe(2);
    expect(folders.map((folder) => folders.filter((f) => f === folder).length).sort()).toEqual([1, 2, 2]);
    // the very bytes that were uploaded, and a summary beside them
    const unzipped = pictures.map((name) => sha256(execFileSync('unzip', ['-p', file, name])));
    expect(unzipped.sort()).toEqual(uploaded.map(sha256).sort());
    expect(entries.some((name) => name.endsWith('.txt'))).toBe(true);

    await detail.getByTestId('order-detail-close').click();
    await expect(detail).toBeHidden();
    await page.context().close();
  });

  test('the screen in English: list and Order Details with "No description"', async () => {
    const page = await signedIn('shop0001', 'en-US');
    const mine = row(page, objWechat);
    await expect(mine).toBeVisible();
    expect(await page.getByTestId('order-table').textContent()).toContain('Detection records');
    await screenshot(page, 'orders-list.en-US');

    await mine.getByTestId(`order-detail-${code}`).click();
    const detail = detailModal(page);
    await until(() => detail.locator('.ant-modal-title').textContent()).toBe('Order Details');
    await expect(detail.getByTestId('order-description')).toContainText('No description');
    await until(() => allLoaded(detail.locator('[data-testid^="order-images-"] img'))).toBe(true);
    for (const label of ['Health certificate', 'Problem proof', 'Environment proof', 'Client shop', 'Amount']) {
      expect(await detail.textContent()).toContain(label);
    }
    await screenshot(page, 'orders-detail.en-US');
    await detail.getByTestId('order-detail-close').click();
    await expect(detail).toBeHidden();
    await page.context().close();
  });

  test("another shop's public order shows to shop0001 in the reduced view: no amount, no client, no inspector", async () => {
    const root = await tokenOf('superadmin', ADMIN_PASSWORD);
    const roles = await call<{ id: number; name: string }[]>(root, '/admin/role/all');
    const shopRole = roles.find((r) => r.name === 'shop');
    expect(shopRole).toBeDefined();
    const other = await call<{ id: number }>(root, '/admin/user/create', {
      username: 'e2eshop02',
      password: 'Shop#2026',
      nickname: '另一家店铺',
      roleId: shopRole?.id,
      wechat: 'wx_other_shop',
      phone: '13800000002',
      ifPublic: 1,
      defaultPrice: 1200,
      defaultPriceCheat: 1500,
      defaultPriceSuspect: 1300,
      defaultPriceNotPass: 1100,
    });
    const admin = await tokenOf('admin01', DEMO_PASSWORD);
    const me = await call<{ id: number }>(admin, '/admin/user/info');
    const publicWechat = `wx_public_${Date.now()}`;
    const order = await call<{ code: string }>(admin, '/admin/order/create', {
      objWechat: publicWechat,
      objWechatName: '公开目标',
      gameName: '和平精英',
      mac: 'aabbccddee43',
      installationTime: new Date().toISOString(),
      result: 1,
      userId: other.id,
      objClientName: '目标所属店铺乙',
      inspectorId: me.id,
      amount: 1500,
      ifPublic: 1,
      ifChangedMac: 1,
      description: '公开的作弊记录',
    });

    const page = await signedIn('shop0001');
    const shared = row(page, publicWechat);
    await expect(shared).toBeVisible();
    const cells = await shared.locator('td').allTextContents();
    expect(cells).not.toContain('¥15.00');
    expect(cells.join('|')).not.toContain('另一家店铺');
    expect(cells.filter((cell) => cell === '—').length).toBeGreaterThanOrEqual(3); // client, inspector and amount

    await shared.getByTestId(`order-detail-${order.code}`).click();
    const detail = detailModal(page);
    await until(() => detail.getByTestId('order-description').textContent()).toBe('公开的作弊记录');
    const text = (await detail.textContent()) ?? '';
    expect(text).toContain('目标所属店铺乙');
    expect(text).toContain('其他店铺公开的检测记录');
    expect(text).not.toContain('另一家店铺');
    expect(text).not.toContain('¥15.00');
    const labels = await detail.locator('.ant-descriptions-item-label').allTextContents();
    expect(labels).toContain('目标所属店铺');
    expect(labels).not.toContain('金额');
    expect(labels).not.toContain('客户店铺');
    expect(labels).not.toContain('检测员');
    await detail.getByTestId('order-detail-close').click();
    await expect(detail).toBeHidden();
    await page.context().close();
  });

  test('an admin sorts by amount on the server and deletes a selection after the confirm', async () => {
    const page = await signedIn('admin01');
    for (const id of ['order-create', 'order-batch-delete']) expect(await page.getByTestId(id).isVisible()).toBe(true);
    await until(() => page.locator('.ant-table-row').count()).toBeGreaterThanOrEqual(2);

    const amounts = async () =>
      (await page.locator('.ant-table-row td.ant-table-column-sort').allTextContents()).map((text) => Number(text.replace(/[¥,]/g, '')));
    const header = page.locator('.ant-table-thead th').filter({ hasText: '金额' });
    const [ascending] = await Promise.all([
      page.waitForRequest(/\/api\/admin\/order\/list\?.*sortField=amount&sortOrder=ascend/),
      header.click(),
    ]);
    expect(ascending.url()).toContain('sortField=amount');
    await until(async () => {
      const shown = await amounts();
      return shown.length >= 2 && shown.every((value, i) => i === 0 || (shown[i - 1] ?? 0) <= value);
    }).toBe(true);
    await Promise.all([page.waitForRequest(/sortField=amount&sortOrder=descend/), header.click()]);
    await until(async () => {
      const shown = await amounts();
      return shown.length >= 2 && shown.every((value, i) => i === 0 || (shown[i - 1] ?? 0) >= value);
    }).toBe(true);

    // select the public order of the other shop and delete it (among this journey's orders: the
    // demo business's targets never start with "wx_")
    await page.locator('#search-order-inspect_objWechat').fill('wx_');
    await page.getByTestId('search-submit').click();
    const target = page.locator('.ant-table-row').filter({ hasText: 'wx_public_' });
    await expect(target).toBeVisible();
    await target.locator('.ant-checkbox-input').check();
    await page.getByTestId('order-batch-delete').click();
    const confirm = page.locator('.ant-modal-confirm');
    await expect(confirm).toContainText('确定要删除选中的数据吗');
    await page.getByTestId('confirm-ok').click();
    await expect(page.locator('.ant-message-notice', { hasText: '删除成功' }).first()).toBeVisible();
    await expect(target).toHaveCount(0);
    await expect(row(page, objWechat)).toBeVisible();
    await page.context().close();
  });

  test('a 1,000-character description wraps in its own cell: code, chat ID and dates keep their width (dialog and profile page, 1440 and 390 wide)', async () => {
    const admin = await tokenOf('admin01', DEMO_PASSWORD);
    const me = await call<{ id: number }>(admin, '/admin/user/info');
    const shops = await call<{ id: number; username: string }[]>(admin, '/admin/user/search?keyword=shop0001');
    const shop = shops.find((u) => u.username === 'shop0001');
    expect(shop).toBeDefined();
    const longWechat = `wx_long_${Date.now()}`;
    const description = '目标在对局中多次出现异常的瞄准轨迹与不合常理的移动速度，复查录像后确认使用了外挂程序。'.repeat(25).slice(0, 1000);
    expect(description).toHaveLength(1000);
    const order = await call<{ id: number; code: string }>(admin, '/admin/order/create', {
      objWechat: longWechat,
      objWechatName: '长描述目标',
      gameName: '和平精英',
      mac: 'aabbccddee44',
      installationTime: new Date().toISOString(),
      result: 1,
      userId: shop?.id,
      objClientName: '目标所属店铺丙',
      inspectorId: me.id,
      amount: 1500,
      description,
    });

    /** Each named field's content cell against its text on one line: cell width minus padding, and the text's width. */
    const widths = (scope: Locator, labels: string[]) =>
      scope.evaluate((root, names) => {
        const out: Record<string, { cell: number; text: number }> = {};
        for (const th of root.querySelectorAll<HTMLElement>('th.ant-descriptions-item-label')) {
          const name = th.textContent?.trim() ?? '';
          if (!names.includes(name)) continue;
          const td = th.nextElementSibling as HTMLElement;
          const style = getComputedStyle(td);
          const probe = document.createElement('span');
          probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${style.font}`;
          probe.textContent = td.textContent;
          document.body.append(probe);
          out[name] = { cell: td.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight), text: probe.offsetWidth };
          probe.remove();
        }
        return out;
      }, labels);
    const check = async (scope: Locator, where: string) => {
      const measured = await widths(scope, ['验证码', '目标微信号', '安装时间', '订单时间']);
      expect(Object.keys(measured), where).toHaveLength(4);
      for (const [name, { cell, text }] of Object.entries(measured))
        expect(cell, `${where}: ${name} (${text}px of text)`).toBeGreaterThanOrEqual(text);
      const descriptionBox = await scope.getByTestId('order-description').boundingBox();
      const scopeBox = await scope.boundingBox();
      expect(descriptionBox!.x + descriptionBox!.width, `${where}: the description stays inside`).toBeLessThanOrEqual(
        scopeBox!.x + scopeBox!.width + 1,
      );
    };

    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const page = await signedIn('admin01');
      await page.setViewportSize(size);
      await page.locator('#search-order-inspect_objWechat').fill(longWechat);
      await page.getByTestId('search-submit').click();
      await expect(row(page, longWechat)).toBeVisible();
      await row(page, longWechat).getByTestId(`order-detail-${order.code}`).click();
      const detail = detailModal(page);
      await until(() => detail.getByTestId('order-description').textContent()).toBe(description);
      await check(detail.getByTestId('order-detail'), `dialog ${size.width}`);

      await page.goto(`/profile/order/${order.id}`);
      const fields = page.getByTestId('order-profile-fields');
      await until(() => fields.getByTestId('order-description').textContent()).toBe(description);
      await check(fields, `profile ${size.width}`);
      await page.context().close();
    }
  });
});
