import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { I18N_OPTIONS } from '../../lib/i18n.ts';
import { publicEnUS } from '../../locales/screens/public.en-US.ts';
import { publicZhCN } from '../../locales/screens/public.zh-CN.ts';

/** The landing page's look-up answer, as LandingPage.tsx asks for it. */
async function found(lng: 'zh-CN' | 'en-US', count: number): Promise<string> {
  const i18n = i18next.createInstance();
  await i18n.init({ ...I18N_OPTIONS, lng, resources: { 'en-US': { translation: publicEnUS }, 'zh-CN': { translation: publicZhCN } } });
  return i18n.t('public.lookup.found', { id: 'wxid_a1b2c3', count });
}

describe('public look-up count', () => {
  it('says "1 public check", not "1 public checks"', async () => {
    expect(await found('en-US', 1)).toBe('1 public check for “wxid_a1b2c3”:');
    expect(await found('en-US', 3)).toBe('3 public checks for “wxid_a1b2c3”:');
  });

  it('says the count in Chinese the same way for one and for many', async () => {
    expect(await found('zh-CN', 1)).toBe('“wxid_a1b2c3”有 1 条公开检测记录：');
    expect(await found('zh-CN', 3)).toBe('“wxid_a1b2c3”有 3 条公开检测记录：');
  });
});
