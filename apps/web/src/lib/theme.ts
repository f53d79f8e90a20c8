import { useSyncExternalStore } from 'react';
import { theme as antdTheme, type ThemeConfig } from 'antd';
import type { AppSettings } from '../config/settings.ts';

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

/** The antd theme for the settings: dark algorithm and the primary colour (spec §9). */
export function themeConfig(settings: Pick<AppSettings, 'theme' | 'themeColor'>): ThemeConfig {
  return {
    algorithm: settings.theme === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    // Links follow the primary colour too (antd derives them from colorInfo otherwise).
    token: { colorPrimary: settings.themeColor, colorLink: settings.themeColor, colorInfo: settings.themeColor },
  };
}
