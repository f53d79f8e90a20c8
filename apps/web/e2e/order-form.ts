// The order form page as the journeys fill it (pages.e2e.ts, first-hour.e2e.ts).
import type { Locator, Page } from '@playwright/test';
import { expect, pick } from './harness.ts';
import { png } from './png.ts';

export type Locale = 'zh-CN' | 'en-US';

/** The form's select labels, and the "normal" result as each language shows it. */
export const LABELS = {
  'zh-CN': { game: '游戏', result: '检测结果', shop: '客户店铺', normal: /^正常$/ },
  'en-US': { game: 'Game', result: 'Result', shop: 'Client shop', normal: /^(正常|Normal)$/ },
} as const;

/** The form page's visible form (a kept tab may hold another, hidden). */
export const formPage = (page: Page): Locator => page.locator('[data-testid="order-form-page"]:visible');

/**
 * Fills the order form page for shop0001 with a normal result and the first game; with
 * `withImages`, uploads one image of each of two kinds and waits for both to finish.
 */
export async function fillOrderForm(
  page: Page,
  locale: Locale,
  { objWechat, name, mac, withImages }: { objWechat: string; name: string; mac: string; withImages: boolean },
): Promise<Locator> {
  const form = formPage(page);
  await expect(form).toBeVisible();
  const labels = LABELS[locale];
  await form.getByTestId('order-form-objWechat').fill(objWechat);
  await form.getByTestId('order-form-objWechatName').fill(name);
  await form.getByTestId('order-form-objClientName').fill('目标所属店铺乙');
  await form.getByTestId('order-form-mac').fill(mac);
  await pick(page, form, labels.game, /./);
  await pick(page, form, labels.result, labels.normal);
  await pick(page, form, labels.shop, /shop0001/, 'shop0001');
  if (withImages) {
    const upload = async (field: string, buffer: Buffer, file: string) => {
      const box = form.locator(`#${field}`);
      await box.locator('input[type=file]').setInputFiles([{ name: file, buffer, mimeType: 'image/png' }]);
      await expect(box.locator('.ant-upload-list-item-done')).toHaveCount(1);
    };
    await upload('certImages', png(40, 30, [200, 40, 40]), 'cert.png');
    await upload('proofImages', png(48, 32, [40, 40, 200]), 'proof.png');
  }
  return form;
}
