import { useSyncExternalStore } from 'react';
import { theme as antdTheme, type ThemeConfig } from 'antd';
import { generate } from '@ant-design/colors';
import type { AppSettings } from '../config/settings.ts';
import { StorageKey, storage } from './storage.ts';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** True when the system asks for less motion (an accessibility setting). */
export const prefersReducedMotion = (): boolean => typeof window !== 'undefined' && window.matchMedia?.(REDUCED_MOTION).matches === true;

/** prefersReducedMotion, re-rendering when the system setting changes. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia?.(REDUCED_MOTION);
      query?.addEventListener('change', onChange);
      return () => query?.removeEventListener('change', onChange);
    },
    prefersReducedMotion,
    () => false,
  );
}

/** Spec §9: colour-weak mode inverts the page by 80%. */
export const colorWeakFilter = 'invert(80%)';

/** antd's dark layout background, which the dark shades are mixed towards. */
const DARK_BACKGROUND = '#141414';

/**
 * Spec §9: the 10 shades of the theme colour (1 lightest … 10 darkest in light; in dark they
 * run from the background towards the colour, as antd's dark algorithm does). Shade 6 is the
 * colour itself in light.
 */
export function themeShades(color: string, theme: AppSettings['theme']): string[] {
  return theme === 'dark' ? generate(color, { theme: 'dark', backgroundColor: DARK_BACKGROUND }) : generate(color);
}

/** The app's own CSS variables: --cp-primary-1 … --cp-primary-10 (layout.css and screens use them). */
export const paletteVariable = (index: number): string => `--cp-primary-${index + 1}`;

let appliedPalette = '';
/**
 * Sets the shades as CSS variables on <html> and saves both themes' shades, so public/boot.js
 * can set them before the first paint without the colour algorithm.
 */
export function applyPalette(color: string, theme: AppSettings['theme']): void {
  const key = `${color}:${theme}`;
  if (key === appliedPalette) return;
  appliedPalette = key;
  const light = themeShades(color, 'light');
  const dark = themeShades(color, 'dark');
  const style = document.documentElement.style;
  (theme === 'dark' ? dark : light).forEach((shade, index) => style.setProperty(paletteVariable(index), shade));
  storage.write(StorageKey.PALETTE, JSON.stringify({ color, light, dark }));
}

/**
 * The antd theme for the settings: dark algorithm, and the theme colour's 10 shades on
 * antd's primary tokens (background, border, hover, base, active, text), the same shades as the
 * app's CSS variables.
 */
export function themeConfig(settings: Pick<AppSettings, 'theme' | 'themeColor'>): ThemeConfig {
  const color = settings.themeColor;
  const shades = themeShades(color, settings.theme);
  return {
    algorithm: settings.theme === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    // Links follow the primary colour too (antd derives them from colorInfo otherwise).
    token: {
      colorPrimary: color,
      colorLink: color,
      colorInfo: color,
      colorPrimaryBg: shades[0],
      colorPrimaryBgHover: shades[1],
      colorPrimaryBorder: shades[2],
      colorPrimaryBorderHover: shades[3],
      colorPrimaryHover: shades[4],
      colorPrimaryActive: shades[6],
      colorPrimaryTextHover: shades[4],
      colorPrimaryText: shades[5],
      colorPrimaryTextActive: shades[6],
    },
  };
}
