import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, setLocale } from '../../lib/i18n.ts';
import { PublicHeader } from './PublicHeader.tsx';
import { PublicPath } from './site.ts';

const header = (path = '/') => (
  <PublicPath value={path}>
    <PublicHeader />
  </PublicPath>
);

afterEach(async () => {
  document.documentElement.removeAttribute('data-theme');
  window.history.replaceState(null, '', '/');
  if (i18n.language !== 'zh-CN') await act(() => setLocale('zh-CN'));
});

describe('the public header (decisions 0068, 0069)', () => {
  it('prerenders the same for everyone: signed out, light, whatever this browser saved', () => {
    localStorage.setItem('token', 't');
    document.documentElement.setAttribute('data-theme', 'dark');
    const html = renderToString(header());
    expect(html).toContain('href="/login"');
    expect(html).toContain('切换到深色模式');
  });

  it('once in the browser, links a signed-in visitor to the app and shows the saved mode', () => {
    localStorage.setItem('token', 't');
    document.documentElement.setAttribute('data-theme', 'dark');
    render(header());
    expect(screen.getByTestId('public-nav-login').getAttribute('href')).toBe('/order/inspect');
    expect(screen.getByTestId('public-theme').getAttribute('aria-label')).toBe('切换到浅色模式');
  });

  it('switches light and dark where the back office reads it, keeping the other settings', async () => {
    localStorage.setItem('settings', JSON.stringify({ theme: 'light', colorWeak: true }));
    render(header());
    await userEvent.click(screen.getByTestId('public-theme'));
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(JSON.parse(localStorage.getItem('settings')!)).toEqual({ theme: 'dark', colorWeak: true });
    expect(screen.getByTestId('public-theme').getAttribute('aria-label')).toBe('切换到浅色模式');
  });

  it('offers each language as a link and switches in place, the language in the address', async () => {
    window.history.replaceState(null, '', '/linkstore');
    render(header('/linkstore'));
    const english = screen.getByText('English');
    expect(english.getAttribute('href')).toBe('/linkstore?lang=en-US');
    expect(english.getAttribute('hreflang')).toBe('en-US');
    expect(screen.getByText('简体中文').getAttribute('href')).toBe('/linkstore');
    await userEvent.click(english);
    await screen.findByText('Link store');
    expect(window.location.pathname + window.location.search).toBe('/linkstore?lang=en-US');
    expect(localStorage.getItem('locale')).toBe('en-US');
    expect(screen.getByTestId('public-nav-linkstore').getAttribute('href')).toBe('/linkstore?lang=en-US');
    await userEvent.click(screen.getByText('简体中文'));
    await screen.findByText('链接商店');
    expect(window.location.search).toBe('');
  });
});
