// Browser journey of the public pages on the demo business: an anonymous visitor
// finds a public cheater by chat ID and not a private one, opens the certificate from its
// code; a QR code read back from an order's downloaded ZIP leads to the same certificate; a
// link staff add on the dictionary screen appears in the link store; both languages, desktop
// and 390 px. Screenshots public-*.png.
import { gzipSync, inflateRawSync } from 'node:zlib';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, allowProblems, expect, newContext, settledScreenshot, test, until, useApp } from './harness.ts';
import { publicEnUS } from '../src/locales/screens/public.en-US.ts';
import { publicZhCN } from '../src/locales/screens/public.zh-CN.ts';

const app = useApp({ DEMO: '1' });
/** A chat ID with a public cheating order, and one whose orders are all private. */
let publicCheater: { objWechat: string; code: string; id: number };
let privateOnly: { objWechat: string; code: string };

test.beforeAll(() => {
  const db = app.server.db();
  publicCheater = db
    .prepare('select obj_wechat as objWechat, code, id from orders where if_public = 1 and result = 1 order by id limit 1')
    .get() as typeof publicCheater;
  privateOnly = db
    .prepare(
      `select obj_wechat as objWechat, code from orders o where if_public = 0 and result = 1
       and not exists (select 1 from orders p where lower(p.obj_wechat) = lower(o.obj_wechat) and p.if_public = 1) order by id limit 1`,
    )
    .get() as typeof privateOnly;
  expect(publicCheater).toBeDefined();
  expect(privateOnly).toBeDefined();
});

const VIEWPORTS = { desktop: { width: 1440, height: 900 }, mobile: { width: 390, height: 844 } } as const;
type Locale = 'zh-CN' | 'en-US';

/** An anonymous visitor in `locale` at `size`. */
async function visitor(locale: Locale, size: keyof typeof VIEWPORTS): Promise<Page> {
  const context = await newContext(app.browser, app.server.url, locale);
  await context.addInitScript((lang) => {
    // Only in the app's own documents: a blank or sandboxed frame may not touch storage.
    if (location.protocol.startsWith('http') && !localStorage.getItem('locale')) localStorage.setItem('locale', lang);
  }, locale);
  const page = await context.newPage();
  await page.setViewportSize(VIEWPORTS[size]);
  return page;
}

/** Nothing wider than the viewport (usable at 390 px). */
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function lookUp(page: Page, chatId: string): Promise<void> {
  await page.getByTestId('public-lookup-input').fill(chatId);
  await page.getByTestId('public-lookup-submit').click();
}

/** The file `name` of a ZIP (central directory; stored or deflated entries). */
function unzipEntry(zip: Buffer, name: string): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  const count = zip.readUInt16LE(end + 10);
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return method === 8 ? inflateRawSync(data) : Buffer.from(data);
    }
    at += 46 + skip;
  }
  throw new Error(`${name} is not in the ZIP`);
}

const TEXT = {
  'zh-CN': { prices: '检测价格', none: '没有找到', noCert: '没有这张证书', cheating: '作弊', steps: '检测如何进行', links: '链接商店' },
  'en-US': {
    prices: 'Prices',
    none: 'No public check found',
    noCert: 'No such certificate',
    cheating: 'Cheating',
    steps: 'How a check works',
    links: 'Link store',
  },
} as const;

test.describe('an anonymous visitor', () => {
  for (const locale of ['zh-CN', 'en-US'] as const) {
    for (const size of ['desktop', 'mobile'] as const) {
      test(`${locale} ${size}: the landing page, the look-up, the certificate and the link store`, async () => {
        const page = await visitor(locale, size);
        const text = TEXT[locale];
        await page.goto('/');
        await expect(page.getByTestId('public-prices')).toBeVisible();
        await expect(page.getByTestId('public-figures')).toBeVisible();
        const body = (await page.locator('body').textContent()) ?? '';
        expect(body).toContain(text.steps);
        expect(body).toContain(text.prices);
        expect(body).toContain('¥50.00');
        expect(await noSideScroll(page)).toBe(true);
        await settledScreenshot(page, `public-landing-${locale}-${size}`);

        // A public cheater, typed in another case: found, masked, never the whole ID.
        await lookUp(page, publicCheater.objWechat.toUpperCase());
        const items = page.getByTestId('public-lookup-item');
        await until(() => items.count()).toBeGreaterThan(0);
        const found = (await page.getByTestId('public-lookup-result').textContent()) ?? '';
        expect(found).toContain(text.cheating);
        expect(found).toContain('***');
        expect(found.replaceAll(publicCheater.objWechat.toUpperCase(), '')).not.toContain(publicCheater.objWechat);
        expect(await page.getByTestId('public-lookup-code').allTextContents()).toContain(publicCheater.code);
        expect(await noSideScroll(page)).toBe(true);
        await settledScreenshot(page, `public-lookup-${locale}-${size}`, { show: page.getByTestId('public-lookup-result') });

        // The certificate, from the code's link.
        await page.getByTestId('public-lookup-code').filter({ hasText: publicCheater.code }).click();
        // A document of its own (the public pages have no client router), in the language read.
        await page.waitForURL((url) => url.pathname === `/verify/${publicCheater.code}`);
        await until(() => page.getByTestId('verify-code').textContent()).toBe(publicCheater.code);
        expect(await page.getByTestId('verify-certificate').textContent()).toContain(text.cheating);
        await expect(page.locator('.pub-qr canvas')).toBeVisible();
        expect(await noSideScroll(page)).toBe(true);
        await settledScreenshot(page, `public-verify-${locale}-${size}`);

        // A private cheater is nobody (two look-ups per visitor: the limit is 10 a minute per client).
        await page.goto('/');
        await lookUp(page, privateOnly.objWechat);
        await expect(page.getByTestId('public-lookup-none')).toContainText(text.none);
        expect(await page.getByTestId('public-lookup-result').textContent()).not.toContain(privateOnly.code);

        // A private order's code and an unknown code: the same "no such certificate".
        allowProblems(/HTTP 404 GET \/api\/public\/verify\//);
        for (const code of [privateOnly.code, 'ABCDEFGH']) {
          await page.goto(`/verify/${code}`);
          await expect(page.getByTestId('verify-none')).toContainText(text.noCert);
        }
        await settledScreenshot(page, `public-verify-none-${locale}-${size}`);

        await page.goto('/linkstore');
        await until(() => page.getByTestId('linkstore-link').count()).toBeGreaterThan(3);
        for (const link of await page.getByTestId('linkstore-link').all()) {
          expect(await link.getAttribute('target')).toBe('_blank');
          expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
          // Drawn from the icon set: an emoji shows as ⊠ on a machine without an emoji font.
          expect(await link.locator('.pub-link-icon svg').count()).toBe(1);
          expect(await link.locator('.pub-link-icon').textContent()).toBe('');
        }
        expect(await page.locator('body').textContent()).toContain('Process Explorer');
        expect(await noSideScroll(page)).toBe(true);
        await settledScreenshot(page, `public-linkstore-${locale}-${size}`);
        await page.context().close();
      });
    }
  }

  test('is told clearly when it looks up too often', async () => {
    const page = await visitor('en-US', 'desktop');
    await page.goto('/');
    await expect(page.getByTestId('public-lookup-input')).toBeVisible();
    allowProblems(/HTTP 429 GET \/api\/public\/lookup/);
    let limited = false;
    for (let i = 0; i < 14 && !limited; i++) {
      await lookUp(page, `wxid_nobody_${i}`);
      await until(async () => (await page.getByTestId('public-lookup-result').textContent()) ?? '').toMatch(
        new RegExp(`wxid_nobody_${i}|Too many`),
      );
      limited = await page.getByTestId('public-lookup-limited').isVisible();
    }
    expect(limited).toBe(true);
    expect(await page.getByTestId('public-lookup-limited').textContent()).toBe('Too many look-ups; please try again in a minute.');
    await page.context().close();
  });
});

test.describe('staff and the public pages', () => {
  test('a QR code read back from an order’s ZIP leads to the same certificate', async () => {
    const staff = await app.signedIn('superadmin', ADMIN_PASSWORD, '/order/inspect');
    const token = await staff.evaluate(() => localStorage.getItem('token'));
    const res = await fetch(`${app.server.url}/api/admin/order/download?id=${publicCheater.id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const zip = Buffer.from(await res.arrayBuffer());
    const summary = unzipEntry(zip, 'summary.txt').toString('utf8');
    const url = `${app.server.url}/verify/${publicCheater.code}`;
    expect(summary).toContain(url);
    const png = PNG.sync.read(unzipEntry(zip, 'verify-qr.png'));
    const read = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
    expect(read).toBe(url);
    const page = await visitor('zh-CN', 'mobile');
    await page.goto(read!);
    await until(() => page.getByTestId('verify-code').textContent()).toBe(publicCheater.code);
    await staff.context().close();
    await page.context().close();
  });

  test('a link added on the dictionary screen appears in the link store; a non-http(s) one is refused', async () => {
    const page = await app.signedIn('superadmin', ADMIN_PASSWORD, '/system/dict');
    await expect(page.getByTestId('dict-type-view-linkstore')).toBeVisible();
    await page.getByTestId('dict-type-view-linkstore').click();
    await expect(page.getByTestId('dict-data-table')).toBeVisible();
    const add = async (label: string, value: string) => {
      await page.getByTestId('dict-data-create').click();
      const form = page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: '新建字典数据' }) });
      await form.getByTestId('dict-data-form-label').fill(label);
      await form.getByTestId('dict-data-form-value').fill(value);
      const parent = form.locator('.ant-form-item').filter({ has: page.locator('label', { hasText: '上级' }) });
      await parent.locator('.ant-select').click();
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper', { hasText: '检测工具' })
        .click();
      await form.getByRole('button', { name: /确\s*定/ }).click();
      return form;
    };
    allowProblems(/HTTP 400 POST \/api\/admin\/dict\/data/);
    const refused = await add('坏链接', 'javascript:alert(1)');
    await expect(refused).toContainText('链接必须是 http:// 或 https:// 地址');
    await refused.getByTestId('dict-data-form-value').fill('https://e2e.example.com/tool');
    await refused.getByTestId('dict-data-form-label').fill('E2E 检测工具');
    await refused.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page.locator('.ant-table-row').filter({ hasText: 'https://e2e.example.com/tool' })).toBeVisible();

    const visit = await visitor('zh-CN', 'desktop');
    await visit.goto('/linkstore');
    const link = visit.getByTestId('linkstore-link').filter({ hasText: 'E2E 检测工具' });
    await expect(link).toBeVisible();
    expect(await link.getAttribute('href')).toBe('https://e2e.example.com/tool');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    const group = visit.getByTestId('linkstore-group').filter({ has: link });
    expect(await group.textContent()).toContain('检测工具');
    await page.context().close();
    await visit.context().close();
  });
});

/** The public pages' messages, as the prerender writes them (HTML-escaped where it matters here). */
const MESSAGES = { 'zh-CN': publicZhCN, 'en-US': publicEnUS } as const;
const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

test.describe('found and shown before any script (decisions 0068, 0069)', () => {
  const PAGES = [
    { path: '/', title: 'public.hero.title', description: 'public.hero.text', canonical: '/' },
    { path: '/home', title: 'public.hero.title', description: 'public.hero.text', canonical: '/' },
    { path: '/linkstore', title: 'public.links.title', description: 'public.links.text', canonical: '/linkstore' },
  ] as const;

  test('the raw HTML of each public page has its content, title, description, hreflang and Open Graph tags in both languages', async () => {
    for (const { path, title, description, canonical } of PAGES) {
      for (const locale of ['zh-CN', 'en-US'] as const) {
        const address = locale === 'zh-CN' ? path : `${path}?lang=${locale}`;
        const res = await fetch(app.server.url + address);
        expect(res.status, address).toBe(200);
        const body = await res.text();
        const m = MESSAGES[locale];
        expect(body).toContain(`<html lang="${locale}"`);
        expect(body).toContain(`<title>${html(m[title])} - ClearPlay</title>`);
        expect(body).toContain(`<meta name="description" content="${html(m[description])}" />`);
        const self = `${app.server.url}${locale === 'zh-CN' ? canonical : `${canonical}?lang=${locale}`}`;
        expect(body).toContain(`<link rel="canonical" href="${self}" />`);
        expect(body).toContain(`<link rel="alternate" hreflang="zh-CN" href="${app.server.url}${canonical}" />`);
        expect(body).toContain(`<link rel="alternate" hreflang="en-US" href="${app.server.url}${canonical}?lang=en-US" />`);
        expect(body).toContain(`<meta property="og:title" content="${html(m[title])} - ClearPlay" />`);
        expect(body).toContain(`<meta property="og:url" content="${self}" />`);
        expect(body).toContain(`data-prerendered="${locale}"`);
        if (canonical === '/') {
          // The headline and the look-up form are in the HTML, before any script runs.
          expect(body).toContain(`<h1>${html(m['public.hero.title'])}</h1>`);
          expect(body).toMatch(/<input[^>]*data-testid="public-lookup-input"/);
          expect(body).toContain(html(m['public.lookup.title']));
        } else {
          expect(body).toContain(`<h1>${html(m['public.links.title'])}</h1>`);
        }
        // No antd, chart or back-office code is referenced by the page. The link store's icons
        // come from @ant-design/icons through its light base (the AntdIconLight chunk), which
        // holds none of antd: the script test below checks the code itself.
        expect(body).not.toMatch(/echarts|DefaultLayout|\bantd\b/i);
      }
    }
  });

  test('with JavaScript off, the landing page shows its headline and look-up form in the address’s language', async () => {
    const context = await app.browser.newContext({ baseURL: app.server.url, javaScriptEnabled: false, viewport: VIEWPORTS.mobile });
    const page = await context.newPage();
    for (const locale of ['zh-CN', 'en-US'] as const) {
      await page.goto(locale === 'zh-CN' ? '/' : '/?lang=en-US');
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(MESSAGES[locale]['public.hero.title']);
      expect(await page.getByTestId('public-lookup-input').isVisible()).toBe(true);
      expect(await page.getByTestId('public-lookup-submit').isVisible()).toBe(true);
      expect(await page.title()).toBe(`${MESSAGES[locale]['public.hero.title']} - ClearPlay`);
    }
    await page.goto('/linkstore?lang=en-US');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(MESSAGES['en-US']['public.links.title']);
    await context.close();
  });

  test('the language switch puts the language in the address, title and description follow', async () => {
    const page = await visitor('zh-CN', 'desktop');
    await page.goto('/');
    await until(() => page.evaluate(() => document.getElementById('root')?.dataset.prerendered ?? 'taken over')).toBe('taken over');
    await page.getByTestId('public-lang-switch').getByText('English').click();
    await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(MESSAGES['en-US']['public.hero.title']);
    expect(new URL(page.url()).search).toBe('?lang=en-US');
    expect(await page.title()).toBe(`${MESSAGES['en-US']['public.hero.title']} - ClearPlay`);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe(MESSAGES['en-US']['public.hero.text']);
    expect(await page.getByTestId('public-nav-linkstore').getAttribute('href')).toBe('/linkstore?lang=en-US');
    // Saved: the bare address opens in English too (the prerendered Chinese page is replaced).
    await page.goto('/linkstore');
    await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(MESSAGES['en-US']['public.links.title']);
    await page.context().close();
  });

  test('/ loads at most 120 KB gzip of JavaScript, none of it antd, chart or back-office code', async () => {
    const page = await visitor('zh-CN', 'mobile');
    const scripts: { url: string; body: Buffer }[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') void res.body().then((body) => scripts.push({ url: res.url(), body }));
    });
    await page.goto('/');
    await expect(page.getByTestId('public-figures')).toBeVisible();
    await page.waitForLoadState('networkidle');
    const gzip = scripts.reduce((sum, s) => sum + gzipSync(s.body, { level: 9 }).length, 0);
    expect(scripts.length).toBeGreaterThan(3);
    expect(gzip).toBeLessThanOrEqual(120_000); // 120 KB in decimal kilobytes, as scripts/first-load.mjs counts
    for (const { url, body } of scripts) {
      // antd's components all read their class prefix through getPrefixCls; ECharts names itself.
      expect(body.toString('utf8'), url).not.toMatch(/getPrefixCls|echarts|DefaultLayout/);
    }
    await page.context().close();
  });

  test('a look-up submitted before the scripts have run is held, then made once they have', async () => {
    const page = await visitor('en-US', 'mobile');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.context().route(/\/assets\/public-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // The test above uses up this client's look-ups; within the same minute this one is refused, which is allowed.
    allowProblems(/HTTP 429 GET \/api\/public\/lookup/);
    await page.goto('/?lang=en-US');
    await lookUp(page, 'wxid_before_scripts');
    // Not the browser's own submission (a reload with the ID in the address): held by boot.js.
    expect(new URL(page.url()).search).toBe('?lang=en-US');
    expect(await page.locator('#root').getAttribute('data-submit-pending')).toBe('');
    release();
    // Answered (or refused by the per-client limit, which the test above may have used up).
    await until(async () => (await page.getByTestId('public-lookup-result').textContent()) ?? '').toMatch(/wxid_before_scripts|Too many/);
    expect(await page.getByTestId('public-lookup-input').inputValue()).toBe('wxid_before_scripts');
    await page.context().close();
  });

  test('robots.txt and sitemap.xml answer', async () => {
    const robots = await fetch(`${app.server.url}/robots.txt`);
    expect(robots.status).toBe(200);
    const rules = await robots.text();
    expect(rules).toContain('Disallow: /system');
    expect(rules).toContain('Disallow: /api/');
    expect(rules).toContain(`Sitemap: ${app.server.url}/sitemap.xml`);
    const sitemap = await fetch(`${app.server.url}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    const xml = await sitemap.text();
    for (const path of ['/', '/?lang=en-US', '/linkstore', '/linkstore?lang=en-US'])
      expect(xml).toContain(`<loc>${app.server.url}${path}</loc>`);
  });
});
