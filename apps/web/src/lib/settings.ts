import { DEFAULT_SETTINGS, type AppSettings } from '../config/settings.ts';
import { StorageKey, storage } from './storage.ts';
import { createStore, useStore } from './store.ts';

export type AppState = AppSettings;

function initialState(): AppState {
  const savedTheme = storage.read(StorageKey.THEME);
  return {
    ...DEFAULT_SETTINGS,
    theme: savedTheme === 'dark' || savedTheme === 'light' ? savedTheme : DEFAULT_SETTINGS.theme,
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
