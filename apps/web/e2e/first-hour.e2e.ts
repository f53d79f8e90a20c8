// The first hour of a shop, an inspector and the owner (the net of decision 0085), on the demo
// business, in both languages at 1440 × 900 and 390 × 844. The shop: shop0001 signs in on the
// login form, finds its orders and opens one, opens a notice (an announcement the owner has just
// published) and a message from the bell, reads its balance and ledger in the user centre, shows
// an order's certificate, and looks a chat ID up on the public page. The inspector: inspector01
// signs in, records an order with two evidence images for a target the demo has checked before
// (its history beside the form), lands on the success page, opens the order's profile with its
// images, and imports a check from the downloaded template. The owner: the workplace, an
// announcement, a new shop with prices and a subscription, the log, a new game in the
// dictionary, that shop's earlier checks imported from the template, an export, the settings,
// the app as the new shop sees it. The harness's net watches every step: no error toast, console
// error or refused call, no clipped column or chart label, no text in the other language
// outside user data.
// Screenshots: docs/screenshots/first-hour-{shop,inspector,owner}-<step>-<language>-<width>.png.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  ADMIN_PASSWORD,
  cleanTmp,
  DEMO_PASSWORD,
  escapeFrom,
  expect,
  login,
  newContext,
  pick,
  publishAnnouncement,
  settledScreenshot,
  test,
  until,
  useApp,
} from './harness.ts';
import { fillOrderForm } from './order-form.ts';
import { downloadOf, fillTemplate, importDialog, importThroughDialog, statValue, type SheetRow } from './order-import.ts';
import screensEnUS from '../src/locales/screens/en-US.ts';
import screensZhCN from '../src/locales/screens/zh-CN.ts';

const app = useApp({ DEMO: '1' });
let downloads: string;

test.beforeAll(() => {
  downloads = mkdtempSync(join(tmpdir(), 'clearplay-first-hour-'));
});

test.afterAll(() => {
  if (downloads) cleanTmp(downloads);
});

// A first hour is ten tasks or more in a row, each checked on the way: on CI's loaded 2 cores the
// owner's took just over 180 s once (it had reached its last step). Long, not stuck: a stuck
// step still fails within the 30 s action and expect timeouts, naming what it waited for.
const JOURNEY_TIMEOUT = 360_000;

const SIZES = { 1440: { width: 1440, height: 900 }, 390: { width: 390, height: 844 } } as const;

const TEXT = {
  'zh-CN': { title: '系统升级通知', body: '今晚 23:00 起检测服务暂停 30 分钟。' },
  'en-US': { title: 'Maintenance tonight', body: 'Checks pause for 30 minutes from 23:00.' },
} as const;

/** A new visitor of the login page in `locale` at `size`, not signed in. */
async function newcomer(locale: 'zh-CN' | 'en-US', size: keyof typeof SIZES): Promise<Page> {
  const context = await newContext(app.browser, app.server.url, locale, {
    cookies: [],
    origins: [{ origin: app.server.url, localStorage: [{ name: 'locale', value: locale }] }],
  });
  const page = await context.newPage();
  await page.setViewportSize(SIZES[size]);
  return page;
}

const shot = (page: Page, step: string, locale: string, size: number, show?: Locator, person = 'shop') =>
  settledScreenshot(page, `first-hour-${person}-${step}-${locale}-${size}`, { show });

test.describe("the shop's first hour", () => {
  for (const locale of ['zh-CN', 'en-US'] as const) {
    for (const size of [1440, 390] as const) {
      test(`shop0001 in ${locale} at ${size}: orders, a notice and a message, the ledger, a certificate, the public look-up`, async () => {
        test.setTimeout(JOURNEY_TIMEOUT);
        const title = `${TEXT[locale].title} ${size}`;
        await publishAnnouncement(app.server.url, title, `<p>${TEXT[locale].body}</p>`);
        const page = await newcomer(locale, size);

        // Signs in on the form and lands on its orders.
        await page.goto('/login');
        await login(page, 'shop0001', DEMO_PASSWORD);
        await until(() => new URL(page.url()).pathname).toBe('/order/inspect');
        const rows = page.locator('.ant-table-tbody > tr.ant-table-row');
        await expect(rows.first()).toBeVisible();
        await shot(page, 'orders', locale, size);

        // Opens the first order's details, then closes them.
        const code = ((await rows.first().locator('[data-testid^="order-detail-"]').first().getAttribute('data-testid')) ?? '').replace(
          'order-detail-',
          '',
        );
        expect(code).toMatch(/^[0-9A-Z]{8}$/);
        await rows.first().locator(`[data-testid="order-detail-${code}"]`).click();
        const detail = page.getByTestId('order-detail');
        await expect(detail).toBeVisible();
        await expect(detail).toContainText(code);
        await page.getByTestId('order-detail-close').click();
        await expect(detail).toBeHidden();

        // The bell: the announcement, read in full, then a message, which leads to its order.
        await page.getByTestId('message-bell').click();
        const box = page.getByTestId('message-box');
        await expect(box).toBeVisible();
        await box.getByTestId('message-tab-notice').click();
        await box.locator('[data-testid^="message-item-"]').filter({ hasText: title }).click();
        const reader = page.locator('.ant-modal').filter({ has: page.getByTestId('announcement-content') });
        await expect(reader).toBeVisible();
        await expect(reader.getByTestId('announcement-content')).toHaveText(TEXT[locale].body);
        await shot(page, 'notice', locale, size);
        await reader.locator('.ant-modal-close').click();
        await expect(reader).toBeHidden();
        await page.getByTestId('message-bell').click();
        await box.getByTestId('message-tab-message').click();
        // The newest message about an order (a recharge of the demo's ledger may be newer, by the hour of the run).
        await box.locator('[data-testid^="message-item-"][data-target="order"]').first().click();
        await expect(detail).toBeVisible();
        await page.getByTestId('order-detail-close').click();
        await expect(detail).toBeHidden();

        // The user centre: its balance and ledger.
        await page.goto('/user/info');
        await expect(page.getByTestId('account-balance')).toHaveText(/¥/);
        await expect(page.getByTestId('account-ledger').locator('.ant-table-row').first()).toBeVisible();
        await shot(page, 'ledger', locale, size, page.getByTestId('account-ledger'));

        // The certificate of its newest public order, as its customer would see it. (Not always the
        // order it opened: the demo's newest order is private at some hours of the day.)
        const me = await app.apiGet<{ id: number }>(page, '/admin/user/info');
        const published = await app.apiGet<{ list: { code: string }[] }>(page, `/admin/order/list?userId=${me.id}&ifPublic=1&pageSize=1`);
        const certificate = published.list[0]?.code ?? '';
        expect(certificate).toMatch(/^[0-9A-Z]{8}$/);
        await page.goto(`/verify/${certificate}`);
        await expect(page.getByTestId('verify-code')).toHaveText(certificate);
        await shot(page, 'certificate', locale, size);

        // The public look-up of a chat ID it has on record.
        const { objWechat } = app.server.db().prepare('select obj_wechat as objWechat from orders where code = ?').get(code) as {
          objWechat: string;
        };
        await page.goto('/');
        await page.getByTestId('public-lookup-input').fill(objWechat);
        await page.getByTestId('public-lookup-submit').click();
        await expect(page.getByTestId('public-lookup-result')).toBeVisible();
        await shot(page, 'lookup', locale, size, page.getByTestId('public-lookup-result'));
        await page.context().close();
      });
    }
  }
});

test.describe("the inspector's first hour", () => {
  for (const locale of ['zh-CN', 'en-US'] as const) {
    for (const size of [1440, 390] as const) {
      test(`inspector01 in ${locale} at ${size}: an order with evidence for a known target, its history, the success page and the profile, an import from the template`, async () => {
        test.setTimeout(JOURNEY_TIMEOUT);
        // A target the demo has checked before: the history panel has its records.
        const { objWechat } = app.server
          .db()
          .prepare('select obj_wechat as objWechat from orders group by obj_wechat having count(*) >= 2 order by obj_wechat limit 1')
          .get() as { objWechat: string };
        const page = await newcomer(locale, size);
        await page.goto('/login');
        await login(page, 'inspector01', DEMO_PASSWORD);
        await until(() => new URL(page.url()).pathname).toBe('/order/inspect');
        await expect(page.locator('.ant-table-tbody > tr.ant-table-row').first()).toBeVisible();
        await shot(page, 'orders', locale, size, undefined, 'inspector');

        // The order form page: a known target, its history beside the form, two evidence images.
        await page.goto('/form/order');
        const form = await fillOrderForm(page, locale, { objWechat, name: '首小时目标', mac: 'aa:bb:cc:dd:ee:61', withImages: true });
        const history = form.getByTestId('history-panel');
        await expect(history.getByTestId('history-same-target').locator('.ant-table-row').first()).toBeVisible();
        await shot(page, 'form', locale, size, history, 'inspector');
        await form.getByTestId('order-form-page-submit').click();

        // The success page, then the order's profile with its images.
        const success = page.getByTestId('result-success');
        await expect(success).toBeVisible();
        const code = (await success.getByTestId('result-order-code').textContent()) ?? '';
        expect(code).toMatch(/^[A-Z2-9]{8}$/);
        await shot(page, 'success', locale, size, undefined, 'inspector');
        await success.getByTestId('result-to-profile').click();
        const profile = page.getByTestId('order-profile');
        await expect(profile.getByTestId('order-profile-fields')).toContainText(code);
        const images = profile.getByTestId('order-profile-images').locator('img');
        await expect(images).toHaveCount(2);
        await until(() =>
          images.evaluateAll((imgs) =>
            imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
          ),
        ).toBe(true);
        await shot(page, 'profile', locale, size, undefined, 'inspector');

        // An import: the template from the order screen, one check filled in as the inspector
        // types it in their language, sent back; the order shows in the list.
        const imported = `fh_import_${locale === 'zh-CN' ? 'zh' : 'en'}${size}`;
        const words = SHEET_WORDS[locale];
        await importOne(page, locale, size, 'inspector', {
          objWechat: imported,
          objWechatName: words.name,
          gameName: words.game,
          mac: `AA-BB-CC-DD-${size === 1440 ? '14' : '39'}-${locale === 'zh-CN' ? '01' : '02'}`,
          result: words.normal,
          userName: 'shop0001',
          objClientName: '星辰陪玩',
          ifPublic: words.public,
          ifChangedMac: words.notChanged,
        });
        await page.context().close();
      });
    }
  }
});

/** What a person types into the import sheet's coded cells, in their language. */
const SHEET_WORDS = {
  'zh-CN': { name: '导入目标', game: '王者荣耀', normal: '正常', cheating: '作弊', public: '公开', notChanged: '未更换' },
  'en-US': {
    name: 'Imported target',
    game: 'Honor of Kings',
    normal: 'Normal',
    cheating: 'Cheating',
    public: 'Public',
    notChanged: 'Not changed',
  },
} as const;

/**
 * On the order screen: downloads the import template, fills `row` in, imports it (all or
 * nothing), expects one order imported, and finds it in the list after the dialog closes.
 */
async function importOne(page: Page, locale: string, size: number, person: string, row: SheetRow): Promise<void> {
  await page.goto('/order/inspect');
  await expect(page.locator('.ant-table-tbody > tr.ant-table-row:visible').first()).toBeVisible();
  await page.getByTestId('order-import').click();
  const dialog = importDialog(page);
  const template = await downloadOf(page, dialog.getByTestId('order-import-template'), downloads);
  expect(template.name).toMatch(/\.xlsx$/);
  const { path } = await fillTemplate(template.path, [row], downloads);
  const report = await importThroughDialog(page, path, false);
  expect(await statValue(report, 'order-import-imported')).toBe(1);
  expect(await statValue(report, 'order-import-rejected-count')).toBe(0);
  // One record, in the singular ("All 1 records were imported" was what an English reader saw).
  await expect(report.getByTestId('order-import-outcome')).toHaveText(
    locale === 'en-US' ? 'The record was imported.' : '全部 1 条记录已导入。',
  );
  await shot(page, 'import', locale, size, undefined, person);
  await dialog.getByTestId('order-import-close').click();
  await expect(page.locator('.ant-table-row:visible', { hasText: row.objWechat! }).first()).toBeVisible();
}

/** The screens' texts the owner's journey looks for, in each language. */
const OWNER_TEXT = {
  'zh-CN': {
    created: screensZhCN['feedback.create.success'],
    subscribed: screensZhCN['feedback.subscribe.success'],
    role: screensZhCN['user.field.role'],
  },
  'en-US': {
    created: screensEnUS['feedback.create.success'],
    subscribed: screensEnUS['feedback.subscribe.success'],
    role: screensEnUS['user.field.role'],
  },
} as const;

test.describe("the owner's first hour", () => {
  for (const locale of ['zh-CN', 'en-US'] as const) {
    for (const size of [1440, 390] as const) {
      test(`superadmin in ${locale} at ${size}: the workplace, an announcement, a new shop with prices and a subscription, the log, a new game, an import from the template, an export, the settings, switch roles`, async () => {
        test.setTimeout(JOURNEY_TIMEOUT);
        const text = OWNER_TEXT[locale];
        const suffix = `${locale === 'zh-CN' ? 'zh' : 'en'}${size}`;
        const page = await newcomer(locale, size);
        await page.goto('/login');
        await login(page, 'superadmin', ADMIN_PASSWORD);
        await until(() => new URL(page.url()).pathname).toBe('/dashboard/workplace');
        await expect(page.getByTestId('workplace-announcements')).toBeVisible();
        await shot(page, 'workplace', locale, size, undefined, 'owner');

        // An announcement, published from the workplace, shows there without a reload.
        const title = `${TEXT[locale].title} ${suffix}`;
        await page.getByTestId('workplace-publish').click();
        const publish = page.locator('.ant-modal').filter({ has: page.getByTestId('announcement-title') });
        await publish.getByTestId('announcement-title').fill(title);
        await publish.getByTestId('announcement-editor').click();
        await page.keyboard.type(TEXT[locale].body);
        await publish.locator('.ant-modal-footer .ant-btn-primary').click();
        await expect(page.getByTestId('workplace-announcements')).toContainText(title);

        // A new shop with its four prices, then a month's subscription.
        const username = `firsthour${suffix}`;
        await page.goto('/system/user');
        await page.getByTestId('user-create').click();
        const form = page.locator('.ant-modal').filter({ has: page.getByTestId('user-form-username') });
        await form.getByTestId('user-form-username').fill(username);
        await form.getByTestId('user-form-password').fill('Shop#2026first');
        await form.getByTestId('user-form-nickname').fill(`首小时店铺 ${suffix}`);
        await pick(page, form, text.role, /^shop/);
        await form.getByTestId('user-form-wechat').fill(`wx_${username}`);
        await form.getByTestId('user-form-phone').fill(`${locale === 'zh-CN' ? '138' : '139'}0013${String(size).padStart(4, '0')}`);
        await form.getByTestId('user-form-defaultPrice').fill('30');
        await form.getByTestId('user-form-defaultPriceCheat').fill('50');
        await form.getByTestId('user-form-defaultPriceSuspect').fill('40');
        await form.getByTestId('user-form-defaultPriceNotPass').fill('20');
        await form.locator('.ant-modal-footer .ant-btn-primary').click();
        await expect(page.locator('.ant-message-notice', { hasText: text.created }).first()).toBeVisible();
        await page.getByTestId(`user-subscribe-${username}`).click();
        const subscribe = page.locator('.ant-modal').filter({ has: page.getByTestId('subscription-new-end') });
        await expect(subscribe.getByTestId('subscription-new-end')).toHaveText(/\d{4}/);
        await subscribe.locator('.ant-modal-footer .ant-btn-primary').click();
        await expect(page.locator('.ant-message-notice', { hasText: text.subscribed }).first()).toBeVisible();
        await shot(
          page,
          'users',
          locale,
          size,
          page.locator('.ant-table-row:visible').filter({ hasText: username }).locator('td').first(),
          'owner',
        );

        // The log tells both, in the reader's language.
        await page.goto('/system/log');
        const logRows = page.locator('.ant-table-row:visible').filter({ hasText: username });
        await expect(logRows.first()).toBeVisible();
        await shot(page, 'log', locale, size, undefined, 'owner');

        // A new game in the dictionary, with its English name and a code as its value.
        const game = { label: `晨星对决 ${suffix}`, labelEn: `Morning Star Duel ${suffix}`, value: `morning-star-${suffix}` };
        await page.goto('/system/dict');
        await page.getByTestId('dict-type-view-game').click();
        await expect(page.getByTestId('dict-data-table')).toBeVisible();
        await page.getByTestId('dict-data-create').click();
        const entry = page.locator('.ant-modal').filter({ has: page.getByTestId('dict-data-form-label') });
        await entry.getByTestId('dict-data-form-label').fill(game.label);
        await entry.getByTestId('dict-data-form-label-en').fill(game.labelEn);
        await entry.getByTestId('dict-data-form-value').fill(game.value);
        await entry.locator('.ant-modal-footer .ant-btn-primary').click();
        await expect(entry).toBeHidden();
        const gameRow = page.getByTestId('dict-data-table').locator('.ant-table-row:visible', { hasText: game.label });
        await expect(gameRow).toBeVisible();
        if (locale === 'en-US') await expect(gameRow).toContainText(game.labelEn);
        await shot(page, 'dict', locale, size, gameRow.locator('td').first(), 'owner');

        // The new shop's earlier checks, imported from the template: one for the new game.
        const words = SHEET_WORDS[locale];
        await importOne(page, locale, size, 'owner', {
          objWechat: `fh_owner_${suffix}`,
          objWechatName: words.name,
          gameName: locale === 'zh-CN' ? game.label : game.labelEn,
          mac: `AA-BB-CC-EE-${size === 1440 ? '14' : '39'}-${locale === 'zh-CN' ? '01' : '02'}`,
          result: words.cheating,
          userName: username,
          objClientName: '月光陪玩',
          ifPublic: words.public,
          ifChangedMac: words.notChanged,
        });
        await expect(page.locator('.ant-table-row:visible', { hasText: `fh_owner_${suffix}` }).first()).toContainText(
          locale === 'zh-CN' ? game.label : game.labelEn,
        );

        // The order list's export saves an xlsx.
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('order-export').click()]);
        expect(download.suggestedFilename()).toMatch(/\.xlsx$/);

        // The settings drawer opens and closes.
        const float = page.getByTestId('settings-float');
        await ((await float.isVisible()) ? float : page.getByTestId('settings-open')).click();
        await expect(page.getByTestId('settings-drawer')).toBeVisible();
        await shot(page, 'settings', locale, size, undefined, 'owner');
        await escapeFrom(page, page.getByTestId('settings-drawer'));

        // Switch roles: the app as the new shop sees it, then back.
        await page.getByTestId('user-menu').click();
        await page.getByTestId('user-view-as').click();
        const viewAs = page.locator('.ant-modal').filter({ has: page.getByTestId('view-as-role-shop') });
        await page.getByTestId('view-as-role-shop').click();
        await pick(page, viewAs, locale === 'zh-CN' ? '店铺账号' : 'Shop account', new RegExp(username), username);
        await viewAs.locator('.ant-modal-footer .ant-btn-primary').click();
        await expect(page.getByTestId('view-as-banner')).toContainText(username);
        await until(() => new URL(page.url()).pathname).toBe('/order/inspect');
        await shot(page, 'view-as', locale, size, undefined, 'owner');
        await page.getByTestId('view-as-end').click();
        await until(() => new URL(page.url()).pathname).toBe('/dashboard/workplace');
        await page.context().close();
      });
    }
  }
});
