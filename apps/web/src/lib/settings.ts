import { DEFAULT_SETTINGS, type AppSettings } from '../config/settings.ts';
import { StorageKey, storage } from './storage.ts';
import { createStore, useStore } from './store.ts';

/** The server menu (spec §3 "serverMenu list"), used when settings.menuFromServer is on. */
export interface ServerMenuItem {
  name: string;
  children?: ServerMenuItem[];
}

export interface AppState extends AppSettings {
  serverMenu: ServerMenuItem[];
}

function initialState(): AppState {
  const savedTheme = storage.read(StorageKey.THEME);
  return {
    ...DEFAULT_SETTINGS,
    theme: savedTheme === 'dark' || savedTheme === 'light' ? savedTheme : DEFAULT_SETTINGS.theme,
    serverMenu: [],
  };
}

export const appStore = createStore<AppState>(initialState());

export const useAppState = <S>(select: (state: AppState) => S): S => useStore(appStore, select);

export function updateSettings(patch: Partial<AppSettings>): void {
  appStore.set((prev) => ({ ...prev, ...patch }));
}

/** Light/dark: saved, and mirrored on <html data-theme> like public/boot.js does. */
export function setTheme(theme: AppSettings['theme']): void {
  storage.write(StorageKey.THEME, theme);
  const root = document.documentElement;
  root.setAttribute('data-theme', theme);
  root.style.colorScheme = theme === 'dark' ? 'dark' : '';
  updateSettings({ theme });
}

export function setServerMenu(serverMenu: ServerMenuItem[]): void {
  appStore.set((prev) => ({ ...prev, serverMenu }));
}

export function clearServerMenu(): void {
  setServerMenu([]);
}
