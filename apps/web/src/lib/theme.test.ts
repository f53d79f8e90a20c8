import { theme as antdTheme } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefersReducedMotion, themeConfig } from './theme.ts';

describe('themeConfig', () => {
  it('follows the settings: algorithm and primary colour', () => {
    const dark = themeConfig({ theme: 'dark', themeColor: '#722ed1' });
    expect(dark.algorithm).toBe(antdTheme.darkAlgorithm);
    expect(dark.token).toMatchObject({ colorPrimary: '#722ed1', colorLink: '#722ed1', colorInfo: '#722ed1' });
    expect(themeConfig({ theme: 'light', themeColor: '#1677ff' }).algorithm).toBe(antdTheme.defaultAlgorithm);
  });
});

describe('prefersReducedMotion', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads the system setting, and is false where there is no window', () => {
    expect(prefersReducedMotion()).toBe(false);
    const asked: string[] = [];
    vi.stubGlobal('window', { matchMedia: (query: string) => (asked.push(query), { matches: true }) });
    expect(prefersReducedMotion()).toBe(true);
    expect(asked).toEqual(['(prefers-reduced-motion: reduce)']);
  });
});
