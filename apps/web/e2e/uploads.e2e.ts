// Browser journeys of the evidence images on the order form with the real qiniu-js SDK
// against the embedded upload host. A small image goes in one form upload, one over 4 MB in
// chunks; both show progress and thumbnails, are saved with the order and served back
// byte-identical. Non-images are refused with the same message, whether the widget knows it by
// the name or the upload host by the bytes (a text file renamed .png). A chunked upload cut off
// by a server stop resumes after the restart without sending the finished parts again.
// Screenshots: docs/screenshots/order-form.{zh-CN,en-US}.png and upload-*.png.
import { createHash } from 'node:crypto';
import type { Locator, Page, Request, Route } from '@playwright/test';
import { allowProblems, DEMO_PASSWORD, expect, pick, settledScreenshot as screenshot, test, until, useApp } from './harness.ts';
import { png } from './png.ts';

const app = useApp();

const MB = 1024 * 1024;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// ── the upload host's requests, as the browser sends them ──

/** `PUT /upload/buckets/<bucket>/objects/<key>/uploads/<uploadId>/<partNumber>`: one chunk. */
const PART_URL = /\/upload\/buckets\/[^/]+\/objects\/[^/]+\/uploads\/([0-9a-f]{32})\/(\d+)$/;
const INIT_URL = /\/upload\/buckets\/[^/]+\/objects\/[^/]+\/uploads$/;

interface SeenRequest {
  method: string;
  path: string;
  /** The chunk number of a part upload. */
  part?: number;
  uploadId?: string;
}

/** Records every request to the upload host (form upload, init, parts, complete). */
function watchUploads(page: Page): SeenRequest[] {
  const seen: SeenRequest[] = [];
  page.on('request', (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (!path.startsWith('/upload') || path.startsWith('/upload/files/')) return;
    const part = PART_URL.exec(path);
    seen.push({
      method: request.method(),
      path,
      ...(part && request.method() === 'PUT' ? { uploadId: part[1], part: Number(part[2]) } : {}),
    });
  });
  return seen;
}

/** An image URL without its signature. */
const bare = (url: string): string => url.split('?')[0]!;

const partsOf = (seen: SeenRequest[]) => seen.filter((r) => r.part !== undefined).map((r) => r.part as number);

// ── the order form ──

/** A fresh context in `locale`, signed in, on the order inspect screen. */
async function signedIn(username: string, locale: 'zh-CN' | 'en-US' = 'zh-CN'): Promise<Page> {
  const page = await app.signedIn(username, DEMO_PASSWORD, '/order/inspect', locale);
  await expect(page.getByTestId('order-create')).toBeVisible();
  return page;
}

const formModal = (page: Page): Locator => page.locator('.ant-modal').filter({ has: page.getByTestId('order-form-objWechat') });

/** Opens the create form and fills every required field; the amount comes from the shop's price. */
async function openFilledCreateForm(page: Page, objWechat: string): Promise<Locator> {
  await page.getByTestId('order-create').click();
  const modal = formModal(page);
  await expect(modal).toBeVisible();
  await modal.getByTestId('order-form-objWechat').fill(objWechat);
  await modal.getByTestId('order-form-objWechatName').fill('上传测试目标');
  await modal.getByTestId('order-form-objClientName').fill('目标店铺');
  await modal.getByTestId('order-form-mac').fill('aa:bb:cc:dd:ee:04');
  await pick(page, modal, '游戏', /./);
  await pick(page, modal, '检测结果', '正常');
  await pick(page, modal, '客户店铺', /shop0001/, 'shop0001');
  // the demo shop's price for a normal result: ¥30
  await expect(modal.getByTestId('order-form-amount')).toHaveValue('30.00');
  return modal;
}

/** The uploader of one image field (its container carries the field's id). */
const uploader = (modal: Locator, field: 'certImages' | 'proofImages' | 'personCertImages') => modal.locator(`#${field}`);

/** The stored URLs the uploader shows as finished thumbnails. */
const thumbnails = (box: Locator) =>
  box.locator('.ant-upload-list-item-done img').evaluateAll((imgs) =>
    imgs.map((img) => {
      const url = new URL((img as HTMLImageElement).src);
      return url.pathname + url.search;
    }),
  );

const choose = (box: Locator, name: string, mimeType: string, buffer: Buffer) =>
  box.locator('input[type=file]').setInputFiles({ name, mimeType, buffer });

/** Whether a click at the middle of `button` lands on it (not on something drawn above it). */
async function topmostIsButton(page: Page, button: Locator): Promise<boolean> {
  const box = await button.boundingBox();
  if (!box) return false;
  const handle = await button.elementHandle();
  return page.evaluate(
    ([x, y, el]) => {
      const hit = document.elementFromPoint(x as number, y as number);
      return hit !== null && (el as Element).contains(hit);
    },
    [box.x + box.width / 2, box.y + box.height / 2, handle] as const,
  );
}

/** SHA-256 and size of what the browser gets back from `url`, with the status. */
const fetchedInBrowser = (page: Page, url: string) =>
  page.evaluate(async (target) => {
    const response = await fetch(target, { cache: 'no-store' });
    const bytes = await response.arrayBuffer();
    const digest = await crypto.subtle.digest('SHA-256', bytes);
    return {
      status: response.status,
      size: bytes.byteLength,
      sha256: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join(''),
    };
  }, url);

/** The SDK's resume records in localStorage (qiniu-js keys them by file name, key and size). */
const resumeCache = (page: Page) =>
  page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('qiniu_js_sdk_upload_file'))
      .map((key) => ({ key, value: JSON.parse(localStorage.getItem(key) ?? 'null') as { id: string; data: (object | null)[] } })),
  );

test.describe('evidence images on the order form (qiniu-js against the embedded host)', () => {
  test('a small image goes in one request and a large one in chunks, with progress and thumbnails; saved and reopened, both URLs serve the same bytes', async () => {
    const page = await signedIn('inspector01');
    const seen = watchUploads(page);
    const small = png(96, 64, 'gradient');
    const large = png(1400, 1300, 'noise'); // ≈ 5.2 MB: two 4 MB chunks
    expect(small.length).toBeLessThan(4 * MB);
    expect(large.length).toBeGreaterThan(4 * MB);

    const objWechat = `wx_upload_${Date.now()}`;
    const modal = await openFilledCreateForm(page, objWechat);
    // an inspector records their own orders at the shop's price
    const inspector = modal.locator('.ant-form-item').filter({ has: page.locator('label', { hasText: '检测员' }) });
    await expect(inspector.locator('.ant-select')).toContainText('inspector01');
    expect(await inspector.locator('.ant-select-disabled').count()).toBe(1);
    expect(await modal.getByTestId('order-form-amount').getAttribute('readonly')).not.toBeNull();
    await pick(page, modal, '检测结果', '作弊');
    await expect(modal.getByTestId('order-form-amount')).toHaveValue('50.00');

    // direct: one multipart POST to the host, no chunk requests
    const cert = uploader(modal, 'certImages');
    await choose(cert, 'small.png', 'image/png', small);
    await until(() => thumbnails(cert).then((urls) => urls.length)).toBe(1);
    const [smallUrl] = await thumbnails(cert);
    // evidence is shown through a short-lived signed link (decision 0082)
    expect(smallUrl).toMatch(/^\/upload\/files\/evidence\/cert\/\d{6}\/[0-9a-f]{32}\?e=\d+&token=[\w-]+$/);
    expect(seen.filter((r) => r.method === 'POST' && r.path === '/upload')).toHaveLength(1);
    expect(partsOf(seen)).toEqual([]);

    // chunked: slow the parts down so the progress can be seen
    await page.route(PART_URL, async (route: Route) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    const proof = uploader(modal, 'proofImages');
    await choose(proof, 'large.png', 'image/png', large);
    await expect(proof.locator('.ant-upload-list-item-uploading .ant-progress')).toBeVisible();
    expect(await proof.getByText('上传中...').isVisible()).toBe(true);
    await screenshot(page, 'upload-progress', { showToasts: true, show: proof });
    await until(() => thumbnails(proof).then((urls) => urls.length)).toBe(1);
    await page.unroute(PART_URL);
    const [largeUrl] = await thumbnails(proof);
    expect(largeUrl).toMatch(/^\/upload\/files\/evidence\/proof\/\d{6}\/[0-9a-f]{32}\?e=\d+&token=[\w-]+$/);
    expect(seen.filter((r) => r.method === 'POST' && INIT_URL.test(r.path))).toHaveLength(1);
    expect(partsOf(seen).sort()).toEqual([1, 2]);
    expect(await proof.getByText('选择图片上传').isVisible()).toBe(true);
    expect(await resumeCache(page)).toEqual([]); // cleared on completion
    await screenshot(page, 'upload-done', { show: proof });

    // save, then reopen the order for edit: the value kept both URLs
    await modal.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect(page.locator('.ant-message-notice', { hasText: '创建成功' }).first()).toBeVisible();
    await expect(modal).toBeHidden();
    const row = page.locator('.ant-table-row').filter({ hasText: objWechat });
    await expect(row).toBeVisible();
    await row.locator('[data-testid^="order-edit-"]').click();
    const reopened = formModal(page);
    await expect(reopened.getByTestId('order-form-objWechat')).toHaveValue(objWechat);
    // the same images, signed anew for this reading
    await until(() => thumbnails(uploader(reopened, 'certImages')).then((urls) => urls.map(bare))).toEqual([bare(smallUrl!)]);
    await until(() => thumbnails(uploader(reopened, 'proofImages')).then((urls) => urls.map(bare))).toEqual([bare(largeUrl!)]);
    const [smallAgain] = await thumbnails(uploader(reopened, 'certImages'));
    const [largeAgain] = await thumbnails(uploader(reopened, 'proofImages'));
    expect(smallAgain).toMatch(/\?e=\d+&token=[\w-]+$/);
    expect(await thumbnails(uploader(reopened, 'personCertImages'))).toEqual([]);
    // the thumbnails really loaded
    await until(() =>
      uploader(reopened, 'proofImages')
        .locator('img')
        .evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)),
    ).toBe(true);

    for (const [url, bytes] of [
      [smallAgain, small],
      [largeAgain, large],
    ] as const) {
      expect(await fetchedInBrowser(page, url as string)).toEqual({ status: 200, size: bytes.length, sha256: sha256(bytes) });
      // the bare path is refused, even from a signed-in browser
      allowProblems(/HTTP 403 GET \/upload\/files\/evidence\//);
      expect((await fetchedInBrowser(page, bare(url as string))).status).toBe(403);
    }
    await reopened.locator('.ant-modal-footer .ant-btn:not(.ant-btn-primary)').click();
    await page.context().close();
  });

  test('a non-image is refused with a message: a .txt by the widget, text renamed .png by the upload host; a failed token call says so once', async () => {
    // Provoked: the upload host refuses the text renamed .png (403, the provider's answer).
    allowProblems(/HTTP 403 POST \/upload$/);
    const page = await signedIn('inspector01');
    const seen = watchUploads(page);
    const modal = await openFilledCreateForm(page, `wx_refused_${Date.now()}`);
    const env = uploader(modal, 'personCertImages');

    // no token: the real token call fails (the server is down for a moment); only the widget's
    // own message shows, not the API client's error toast as well
    const tokenCalls: { url: string; failed: string | null }[] = [];
    const onTokenCall = (request: Request, failed: string | null) => {
      if (new URL(request.url()).pathname === '/api/admin/upload/token') tokenCalls.push({ url: request.url(), failed });
    };
    const onFailed = (request: Request) => onTokenCall(request, request.failure()?.errorText ?? 'failed');
    page.on('requestfailed', onFailed);
    await app.server.halt();
    const cert = uploader(modal, 'certImages');
    await choose(cert, 'small.png', 'image/png', png(16, 16, 'gradient'));
    await expect(page.locator('.ant-message-notice', { hasText: '获取上传 token 失败' }).first()).toBeVisible();
    await expect(cert.locator('.ant-upload-list-item-error')).toHaveCount(1);
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]!.url).toContain('purpose=cert');
    expect(await page.locator('.ant-message-notice').count()).toBe(1);
    page.off('requestfailed', onFailed);
    await app.server.restart();

    // the widget's own filter: nothing is sent
    const notImage = page.locator('.ant-message-notice', { hasText: '只能上传图片（JPEG、PNG、GIF、WebP、BMP、AVIF、HEIC、TIFF）' });
    await choose(env, 'notes.txt', 'text/plain', Buffer.from('not a picture\n'));
    await expect(notImage.first()).toBeVisible();
    expect(await env.locator('.ant-upload-list-item').count()).toBe(0);
    expect(seen).toEqual([]);
    await notImage.first().waitFor({ state: 'detached', timeout: 10_000 });

    // a text file named like a PNG passes the name check; the host reads the bytes and refuses it
    // (403 limited mimeType, the provider's answer): the same message as the .txt, no thumbnail left
    await choose(env, 'fake.png', 'image/png', Buffer.from('this is plain text pretending to be a PNG\n'.repeat(20)));
    await until(() => seen.filter((r) => r.method === 'POST' && r.path === '/upload').length).toBe(1);
    await expect(notImage.first()).toBeVisible();
    await expect(env.locator('.ant-upload-list-item')).toHaveCount(0);
    expect(await page.locator('.ant-message-notice', { hasText: /上传失败|mimeType|403/ }).count()).toBe(0);
    expect(await env.locator('img').count()).toBe(0);
    expect(await env.getByRole('button', { name: '重试' }).count()).toBe(0);
    await screenshot(page, 'upload-refused', { showToasts: true, show: env });

    // nothing refused ends up in the value: the saved order has no environment images
    const form = modal.locator('form');
    expect(await form.evaluate(() => document.querySelectorAll('#personCertImages .ant-upload-list-item-done').length)).toBe(0);
    await modal.locator('.ant-modal-footer .ant-btn:not(.ant-btn-primary)').click();
    await page.context().close();
  });

  test('a chunked upload cut off by a server stop resumes after the restart: the parts sent before are not sent again and the file is byte-identical', async () => {
    test.setTimeout(120_000);
    const page = await signedIn('admin01');
    const seen = watchUploads(page);
    const big = png(1800, 1800, 'noise'); // ≈ 9.7 MB: parts 1 and 2 of 4 MB, part 3 the rest
    expect(big.length).toBeGreaterThan(8 * MB);

    const modal = await openFilledCreateForm(page, `wx_resume_${Date.now()}`);
    const cert = uploader(modal, 'certImages');

    // Phase 1: part 1 goes through; parts 2 and 3 (sent at the same time, 3 concurrent) are held.
    let phase: 'first' | 'down' | 'up' = 'first';
    const held: Route[] = [];
    await page.route(PART_URL, async (route: Route) => {
      const part = Number(PART_URL.exec(new URL(route.request().url()).pathname)?.[2]);
      if (phase === 'first' && part !== 1) held.push(route);
      else if (phase === 'down') await route.abort('connectionrefused');
      else await route.continue();
    });
    const partOne = page.waitForResponse(
      (r) => r.request().method() === 'PUT' && /\/1$/.test(new URL(r.url()).pathname) && PART_URL.test(new URL(r.url()).pathname),
    );
    await choose(cert, 'evidence-large.png', 'image/png', big);
    expect((await partOne).status()).toBe(200);
    await until(() => held.length).toBe(2);
    // the SDK recorded part 1 in its resume cache (localStorage)
    await until(() => resumeCache(page).then((c) => c.length === 1 && c[0]!.value.data[0] !== null)).toBe(true);
    const [cached] = await resumeCache(page);
    const uploadId = cached!.value.id;
    expect(uploadId).toMatch(/^[0-9a-f]{32}$/);
    await expect(cert.locator('.ant-upload-list-item-uploading .ant-progress')).toBeVisible();

    // Phase 2: the server stops; the held parts and the SDK's own retries fail.
    await app.server.halt();
    phase = 'down';
    for (const route of held.splice(0)) await route.abort('connectionrefused');
    await expect(cert.locator('.ant-upload-list-item-error')).toHaveCount(1, { timeout: 30_000 });
    await expect(page.locator('.ant-message-notice', { hasText: '上传失败：' }).first()).toBeVisible();
    expect(partsOf(seen).filter((p) => p === 1)).toHaveLength(1); // the retries skipped part 1 already
    await screenshot(page, 'upload-interrupted', { showToasts: true, show: cert });

    // Phase 3: the same server comes back (same port, same data directory); retry resumes.
    await app.server.restart();
    phase = 'up';
    const before = seen.length;
    const retry = cert.getByRole('button', { name: '重试' });
    await retry.scrollIntoViewIfNeeded();
    // a person clicks it: nothing of the picture card may lie on top of the button
    expect(await topmostIsButton(page, retry), 'the retry button is covered (the picture card mask lies above it)').toBe(true);
    await retry.click();
    await until(() => thumbnails(cert).then((urls) => urls.length), 30_000).toBe(1);
    const after = seen.slice(before);
    expect(after.filter((r) => r.method === 'POST' && INIT_URL.test(r.path))).toEqual([]); // no new multipart upload
    expect(partsOf(after).sort()).toEqual([2, 3]);
    expect(new Set(after.filter((r) => r.part !== undefined).map((r) => r.uploadId))).toEqual(new Set([uploadId]));
    expect(partsOf(seen).filter((p) => p === 1)).toHaveLength(1); // part 1 was sent once in all
    expect(await resumeCache(page)).toEqual([]);

    const [url] = await thumbnails(cert);
    expect(await fetchedInBrowser(page, url!)).toEqual({ status: 200, size: big.length, sha256: sha256(big) });
    await screenshot(page, 'upload-resumed', { show: cert });
    await page.unroute(PART_URL);
    await modal.locator('.ant-modal-footer .ant-btn:not(.ant-btn-primary)').click();
    await page.context().close();
  });
});

test.describe('the order form', () => {
  test('staff see every field, the amount from the shop price and may override it (screenshots in both languages)', async () => {
    test.setTimeout(120_000);
    for (const locale of ['zh-CN', 'en-US'] as const) {
      const page = await signedIn('admin01', locale);
      await page.getByTestId('order-create').click();
      const modal = formModal(page);
      await expect(modal).toBeVisible();
      // required fields are refused empty, and a MAC in no accepted spelling
      await modal.getByTestId('order-form-mac').fill('AA-BB-CC');
      await modal.locator('.ant-modal-footer .ant-btn-primary').click();
      await until(() => modal.locator('.ant-form-item-explain-error').count()).toBeGreaterThanOrEqual(7);
      expect(
        await modal
          .locator('.ant-form-item-explain-error', { hasText: locale === 'zh-CN' ? 'MAC 地址格式不正确' : 'Invalid MAC address' })
          .isVisible(),
      ).toBe(true);
      for (const mac of ['aa:bb:cc:dd:ee:ff', 'aabbccddeeff', 'aabb.ccdd.eeff', 'AA-BB-CC-DD-EE-FF']) {
        await modal.getByTestId('order-form-mac').fill(mac);
        await until(() =>
          modal
            .locator('.ant-form-item-explain-error', { hasText: locale === 'zh-CN' ? 'MAC 地址格式不正确' : 'Invalid MAC address' })
            .count(),
        ).toBe(0);
      }
      await modal.getByTestId('order-form-objWechat').fill('wxid_example01');
      await modal.getByTestId('order-form-objWechatName').fill(locale === 'zh-CN' ? '示例目标' : 'Example target');
      await modal.getByTestId('order-form-objClientName').fill(locale === 'zh-CN' ? '示例店铺' : 'Example club');
      await pick(page, modal, locale === 'zh-CN' ? '游戏' : 'Game', /./);
      await pick(page, modal, locale === 'zh-CN' ? '检测结果' : 'Result', locale === 'zh-CN' ? '作弊' : 'Cheating');
      await pick(page, modal, locale === 'zh-CN' ? '客户店铺' : 'Client shop', /shop0001/, 'shop0001');
      await expect(modal.getByTestId('order-form-amount')).toHaveValue('50.00'); // the demo shop's price for cheating
      // staff may override: editable, with the shop price shown and a way back to it
      expect(await modal.getByTestId('order-form-amount').getAttribute('readonly')).toBeNull();
      await modal.getByTestId('order-form-amount').fill('1.23');
      await expect(modal.getByTestId('order-form-price').locator('button')).toBeVisible();
      expect(await modal.getByTestId('order-form-price').textContent()).toContain('¥50.00');
      await modal.getByTestId('order-form-price').locator('button').click();
      await expect(modal.getByTestId('order-form-amount')).toHaveValue('50.00');
      await modal
        .getByTestId('order-form-description')
        .fill(locale === 'zh-CN' ? '远程检测，发现外挂进程。' : 'Remote check found a cheat process.');
      await screenshot(page, `order-form.${locale}`, { show: modal.locator('.ant-modal-title') });
      await modal.locator('.ant-modal-footer .ant-btn:not(.ant-btn-primary)').click();
      await page.context().close();
    }
  });
});
