/**
 * Every localStorage key the web app uses, in one place. public/boot.js (loaded by index.html) reads
 * THEME, LOCALE, SETTINGS and PALETTE before React loads; keep the names in sync with it.
 */
export const StorageKey = {
  /** Spec §4/§9: a token under "token" means logged in. */
  TOKEN: 'token',
  /** Spec §4: the language, zh-CN or en-US. */
  LOCALE: 'locale',
  /** light or dark. */
  THEME: 'theme',
  /** The app settings as JSON (lib/settings.ts); boot.js reads colorWeak. */
  SETTINGS: 'settings',
  /** The theme colour's 10 shades for light and dark as JSON (lib/theme.ts); boot.js sets them. */
  PALETTE: 'theme-palette',
  /** The tab bar's tabs, in sessionStorage (they survive a reload, not a new browser tab). */
  TABS: 'tabs',
  /** "Remember password" keeps the username only; the password is never stored. */
  REMEMBERED_USERNAME: 'remembered-username',
} as const;

/**
 * A table's column settings and density, per user and table (components/SearchTable):
 * `table:<userId>:<tableId>`.
 */
export const tablePrefsKey = (userId: number | string, tableId: string): string => `table:${userId}:${tableId}`;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the app keeps working in memory.
  }
}

export const storage = { read, write };

/** The same over sessionStorage (per browser tab). */
export const sessionStore = {
  read(key: string): string | null {
    try {
      return window.sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  write(key: string, value: string | null): void {
    try {
      if (value === null) window.sessionStorage.removeItem(key);
      else window.sessionStorage.setItem(key, value);
    } catch {
      // Unavailable: the tabs live in memory only.
    }
  },
};

export const getToken = (): string | null => read(StorageKey.TOKEN);
export const setToken = (token: string): void => write(StorageKey.TOKEN, token);
export const removeToken = (): void => write(StorageKey.TOKEN, null);
export const isLoggedIn = (): boolean => Boolean(getToken());
