import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { I18N_OPTIONS } from '../../lib/i18n.ts';
import { ordersIoEnUS } from '../../locales/screens/orders-io.en-US.ts';
import { ordersIoZhCN } from '../../locales/screens/orders-io.zh-CN.ts';

/** The import report's outcome line, asked for as components/ImportButton.tsx asks for it. */
async function outcome(lng: 'zh-CN' | 'en-US', key: 'success' | 'none', count: number): Promise<string> {
  const i18n = i18next.createInstance();
  await i18n.init({ ...I18N_OPTIONS, lng, resources: { 'en-US': { translation: ordersIoEnUS }, 'zh-CN': { translation: ordersIoZhCN } } });
  return i18n.t(`orderIo.import.result.${key}`, { count });
}

describe('order import report', () => {
  it('speaks of one record in the singular in English, not "All 1 records were imported."', async () => {
    expect(await outcome('en-US', 'success', 1)).toBe('The record was imported.');
    expect(await outcome('en-US', 'success', 3)).toBe('All 3 records were imported.');
    expect(await outcome('en-US', 'none', 1)).toMatch(/^A row did not pass, so nothing in the file was imported\. Fix it /);
    expect(await outcome('en-US', 'none', 2)).toMatch(/^2 rows did not pass, so nothing in the file was imported\. Fix them /);
  });

  it('says the count in Chinese the same way for one and for many', async () => {
    expect(await outcome('zh-CN', 'success', 1)).toBe('全部 1 条记录已导入。');
    expect(await outcome('zh-CN', 'success', 4)).toBe('全部 4 条记录已导入。');
    expect(await outcome('zh-CN', 'none', 1)).toMatch(/^有 1 行未通过校验/);
  });
});
