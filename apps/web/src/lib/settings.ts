import { useMemo } from 'react';
import type { MenuItem } from '@clearplay/contract';
import {
  DEFAULT_SETTINGS,
  MENU_WIDTH_MAX,
  MENU_WIDTH_MIN,
  PERSISTED_SETTINGS,
  type AppSettings,
  type PersistedSettings,
} from '../config/settings.ts';
import { StorageKey, storage } from './storage.ts';
import { createStore, useStore } from './store.ts';
import { applyPalette, colorWeakFilter } from './theme.ts';

/** One item of the server menu (POST /api/menu): a route name, its path and title, maybe children. */
export type ServerMenuItem = MenuItem;

/** The app settings plus the "serverMenu list" (filled while menuFromServer is on). */
export interface AppState extends AppSettings {
  serverMenu: ServerMenuItem[] | null;
}

const isColor = (value: unknown): value is string => typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value);

/**
 * The saved settings (JSON under StorageKey.SETTINGS), each value checked against its default's
 * type, so a hand-edited or older entry can never break the layout. The theme has its own key
 * too (public/boot.js reads it before paint), which wins.
 */
export function readSavedSettings(): Partial<PersistedSettings> {
  const out: Partial<Record<keyof PersistedSettings, unknown>> = {};
  let saved: unknown;
  try {
    saved = JSON.parse(storage.read(StorageKey.SETTINGS) ?? 'null');
  } catch {
    saved = null;
  }
  if (saved && typeof saved === 'object') {
    for (const key of PERSISTED_SETTINGS) {
      const value = (saved as Record<string, unknown>)[key];
      if (typeof value !== typeof DEFAULT_SETTINGS[key]) continue;
      if (key === 'themeColor' && !isColor(value)) continue;
      if (key === 'theme' && value !== 'light' && value !== 'dark') continue;
      if (key === 'menuWidth' && !(Number.isInteger(value) && (value as number) >= MENU_WIDTH_MIN && (value as number) <= MENU_WIDTH_MAX))
        continue;
      out[key] = value;
    }
  }
  const savedTheme = storage.read(StorageKey.THEME);
  if (savedTheme === 'dark' || savedTheme === 'light') out.theme = savedTheme;
  return out as Partial<PersistedSettings>;
}

function initialState(): AppState {
  return { ...DEFAULT_SETTINGS, ...readSavedSettings(), serverMenu: null };
}

export const appStore = createStore<AppState>(initialState());

export const useAppState = <S>(select: (state: AppState) => S): S => useStore(appStore, select);

/** The settings worth keeping across reloads (all but the device and the server's list). */
export function persistedSettings(state: AppSettings = appStore.get()): PersistedSettings {
  return Object.fromEntries(PERSISTED_SETTINGS.map((key) => [key, state[key]])) as PersistedSettings;
}

let lastSaved = '';
/**
 * Saves the settings and mirrors on <html> what public/boot.js restores before the first paint:
 * data-theme, the colour-weak filter and the theme colour's CSS variables.
 */
function persist(state: AppState): void {
  const json = JSON.stringify(persistedSettings(state));
  if (json !== lastSaved) {
    lastSaved = json;
    storage.write(StorageKey.SETTINGS, json);
    storage.write(StorageKey.THEME, state.theme);
  }
  const root = document.documentElement;
  root.setAttribute('data-theme', state.theme);
  root.style.colorScheme = state.theme === 'dark' ? 'dark' : '';
  root.style.filter = state.colorWeak ? colorWeakFilter : '';
  applyPalette(state.themeColor, state.theme);
}

if (typeof document !== 'undefined') {
  persist(appStore.get());
  appStore.subscribe(() => persist(appStore.get()));
}

export function updateSettings(patch: Partial<AppState>): void {
  appStore.set((prev) => ({ ...prev, ...patch }));
}

/** Light/dark: saved, and mirrored on <html data-theme> like public/boot.js does. */
export function setTheme(theme: AppSettings['theme']): void {
  updateSettings({ theme });
}

/** "Reset": the defaults (the device stays what the window says). */
export function resetSettings(): void {
  appStore.set((prev) => ({ ...prev, ...DEFAULT_SETTINGS, device: prev.device, serverMenu: null }));
}

export function setServerMenu(serverMenu: ServerMenuItem[] | null): void {
  updateSettings({ serverMenu });
}

/** Logout: the server menu belongs to the session. */
export function clearServerMenu(): void {
  setServerMenu(null);
}

/** The route names of a server menu, at any depth. */
export function serverMenuNames(menu: readonly ServerMenuItem[]): Set<string> {
  const names = new Set<string>();
  const walk = (list: readonly { name: string; children?: readonly { name: string }[] }[]) =>
    list.forEach((item) => {
      names.add(item.name);
      if (item.children) walk(item.children);
    });
  walk(menu);
  return names;
}

/** With menuFromServer on and its list loaded: the names it allows; otherwise null (no limit). */
export function useServerMenuNames(): Set<string> | null {
  const on = useAppState((s) => s.menuFromServer);
  const menu = useAppState((s) => s.serverMenu);
  return useMemo(() => (on && menu ? serverMenuNames(menu) : null), [on, menu]);
}
