/**
 * App settings (spec §3) and their defaults. The live values are in lib/settings.ts;
 * only the theme is saved across reloads (with the language, see lib/i18n.ts).
 */
export interface AppSettings {
  theme: 'light' | 'dark';
  /** Colour-weak mode: an 80% invert filter on the page (spec §4, §9). */
  colorWeak: boolean;
  navbar: boolean;
  menu: boolean;
  topMenu: boolean;
  hideMenu: boolean;
  menuCollapse: boolean;
  footer: boolean;
  /** Primary colour; antd derives its 10 shades from it (spec §9). */
  themeColor: string;
  /** Side menu width in px. */
  menuWidth: number;
  tabBar: boolean;
  /**
   * Spec §3: the menu and the role guard would also follow a server menu (POST /api/menu).
   * That call does not exist yet (the layout issue builds it), so nothing reads this yet.
   */
  menuFromServer: boolean;
  device: 'desktop' | 'mobile';
  globalSettings: boolean;
}

export const DEFAULT_SETTINGS: AppSettings = {
  theme: 'light',
  colorWeak: false,
  navbar: true,
  menu: true,
  topMenu: false,
  hideMenu: false,
  menuCollapse: false,
  footer: true,
  themeColor: '#165DFF',
  menuWidth: 220,
  tabBar: true,
  menuFromServer: false,
  device: 'desktop',
  globalSettings: false,
};

export const APP_NAME = 'ClearPlay';
