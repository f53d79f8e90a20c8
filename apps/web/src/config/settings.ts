/**
 * App settings (docs/product.md "The back office") and their defaults. The live values are in lib/settings.ts, which
 * saves PERSISTED_SETTINGS per browser (local storage); public/boot.js restores the theme, the
 * colour-weak filter and the theme colour's shades before the first paint.
 */
export interface AppSettings {
  theme: 'light' | 'dark';
  /** Colour-weak mode: an 80% invert filter on the page. */
  colorWeak: boolean;
  navbar: boolean;
  menu: boolean;
  topMenu: boolean;
  hideMenu: boolean;
  menuCollapse: boolean;
  footer: boolean;
  /** Primary colour; antd derives its 10 shades from it. */
  themeColor: string;
  /** Side menu width in px. */
  menuWidth: number;
  tabBar: boolean;
  /** Spec §3–§5: the menu and the role guard also follow the server menu (POST /api/menu). */
  menuFromServer: boolean;
  /** Follows the window (app/layout/use-device.ts): below 992 px, 'mobile'. Not saved. */
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

/** What survives a reload (the device follows the window instead). */
export const PERSISTED_SETTINGS = [
  'theme',
  'colorWeak',
  'navbar',
  'menu',
  'topMenu',
  'hideMenu',
  'menuCollapse',
  'footer',
  'themeColor',
  'menuWidth',
  'tabBar',
  'menuFromServer',
  'globalSettings',
] as const satisfies readonly (keyof AppSettings)[];
export type PersistedSettings = Pick<AppSettings, (typeof PERSISTED_SETTINGS)[number]>;

/** Spec §9: the menu width's bounds in the settings drawer. */
export const MENU_WIDTH_MIN = 160;
export const MENU_WIDTH_MAX = 400;

/** Preset theme colours offered next to the picker (antd's palette; the first is the default). */
export const THEME_COLOR_PRESETS = ['#165DFF', '#722ED1', '#13C2C2', '#52C41A', '#FA8C16', '#F5222D', '#EB2F96', '#2F54EB'] as const;

export const APP_NAME = 'ClearPlay';
