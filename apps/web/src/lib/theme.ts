import { theme as antdTheme, type ThemeConfig } from 'antd';
import type { AppSettings } from '../config/settings.ts';

/** The antd theme for the settings: dark algorithm and the primary colour (spec §9). */
export function themeConfig(settings: Pick<AppSettings, 'theme' | 'themeColor'>): ThemeConfig {
  return {
    algorithm: settings.theme === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    // Links follow the primary colour too (antd derives them from colorInfo otherwise).
    token: { colorPrimary: settings.themeColor, colorLink: settings.themeColor, colorInfo: settings.themeColor },
  };
}
