import { describe, expect, it } from 'vitest';
import { catalogue, pickLocale, t } from './messages.ts';

describe('messages', () => {
  it('has the same keys, all non-empty, in both locales', () => {
    const en = Object.keys(catalogue['en-US']).sort();
    expect(Object.keys(catalogue['zh-CN']).sort()).toEqual(en);
    for (const locale of ['en-US', 'zh-CN'] as const) {
      for (const [key, text] of Object.entries(catalogue[locale])) expect(text, `${locale} ${key}`).not.toBe('');
    }
  });

  it('uses the same placeholders in both locales', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(catalogue['en-US'])) {
      expect(placeholders(catalogue['zh-CN'][key as keyof (typeof catalogue)['zh-CN']]), key).toEqual(placeholders(text));
    }
  });

  it('fills placeholders', () => {
    expect(t('en-US', 'auth.locked', { minutes: 3 })).toBe('Too many failed logins, please try again in 3 minutes');
    expect(t('zh-CN', 'auth.locked', { minutes: 3 })).toBe('登录失败次数过多，请 3 分钟后再试');
  });

  it.each([
    [undefined, 'en-US'],
    ['', 'en-US'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['en-US,en;q=0.9,zh-CN;q=0.8', 'en-US'],
    ['en;q=0.5,zh-CN;q=0.9', 'zh-CN'],
    ['fr-FR', 'en-US'],
    ['zh;q=0', 'en-US'],
  ])('picks the locale of Accept-Language %o as %s', (header, locale) => {
    expect(pickLocale(header)).toBe(locale);
  });
});
