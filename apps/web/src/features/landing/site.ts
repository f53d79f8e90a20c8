import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { routeTable, RouteNames, type RouteDef } from '@clearplay/contract/constants';
import { APP_NAME } from '../../config/settings.ts';
import { DEFAULT_LOCALE, setLocale, type Locale } from '../../lib/i18n.ts';
import { StorageKey, storage } from '../../lib/storage.ts';

/**
 * What the public pages share outside React Router (they are their own light entry,
 * src/public/main.tsx, and prerendered at build time; decision 0068): the address of the page
 * shown, links that keep the language (`?lang=`, decision 0069), the document's title and
 * description, and light/dark without the back office's settings store (antd's theme code).
 */

/** The path of the public page shown (`/`, `/home`, `/linkstore`, `/verify/<code>`). */
export const PublicPath = createContext('/');
export const usePublicPath = (): string => useContext(PublicPath);

/** `path` in `lang`: the default language has no parameter (the canonical address). */
export const hrefIn = (path: string, lang: string): string => (lang === DEFAULT_LOCALE ? path : `${path}?lang=${lang}`);

/** A link to another public page in the language shown. */
export function usePublicHref(): (path: string) => string {
  const { i18n } = useTranslation();
  return (path) => hrefIn(path, i18n.language);
}

/** Switches the language (saved, as everywhere) and puts it in the address. */
export async function switchLanguage(lang: Locale): Promise<void> {
  await setLocale(lang);
  const url = new URL(window.location.href);
  if (lang === DEFAULT_LOCALE) url.searchParams.delete('lang');
  else url.searchParams.set('lang', lang);
  window.history.replaceState(window.history.state, '', url);
}

/** Title and description of the prerendered pages (message keys), also what they set at run time. */
export const PAGE_HEAD = {
  landing: { title: 'public.hero.title', description: 'public.hero.text' },
  linkstore: { title: 'public.links.title', description: 'public.links.text' },
} as const;

/** The document title of a public page (the prerender writes the same, vite.config.ts). */
export const pageTitle = (title: string): string => `${title} - ${APP_NAME}`;

/**
 * Keeps <title>, the description and their Open Graph twins in step with the language shown
 * (the prerendered page has them in its HTML for crawlers; this follows a language switch).
 */
export function usePublicHead(title: string, description: string): void {
  const { i18n } = useTranslation();
  useEffect(() => {
    document.title = pageTitle(title);
    const set = (selector: string, value: string) => document.head.querySelector(selector)?.setAttribute('content', value);
    set('meta[name="description"]', description);
    set('meta[property="og:title"]', pageTitle(title));
    set('meta[property="og:description"]', description);
    set('meta[property="og:locale"]', i18n.language.replace('-', '_'));
  }, [title, description, i18n.language]);
}

/** Whether a session token is saved (false in the prerender: the HTML is the same for everyone). */
export function useSignedIn(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => storage.read(StorageKey.TOKEN) !== null,
    () => false,
  );
}
const noSubscription = () => () => undefined;

type Mode = 'light' | 'dark';
const modeListeners = new Set<() => void>();
const currentMode = (): Mode => (document.documentElement.getAttribute('data-theme') === 'dark' ? 'dark' : 'light');

/** Light or dark, as public/boot.js put it on <html> (light in the prerender). */
export function useMode(): Mode {
  return useSyncExternalStore(
    (listener) => {
      modeListeners.add(listener);
      return () => modeListeners.delete(listener);
    },
    currentMode,
    () => 'light',
  );
}

/**
 * Light/dark from a public page: on <html> and saved where the back office reads it (the theme
 * key for boot.js, the settings' `theme` for lib/settings.ts), so /login opens in the same mode.
 */
export function setMode(mode: Mode): void {
  const root = document.documentElement;
  root.setAttribute('data-theme', mode);
  root.style.colorScheme = mode === 'dark' ? 'dark' : '';
  storage.write(StorageKey.THEME, mode);
  try {
    const saved = JSON.parse(storage.read(StorageKey.SETTINGS) ?? 'null') as unknown;
    if (saved && typeof saved === 'object') storage.write(StorageKey.SETTINGS, JSON.stringify({ ...saved, theme: mode }));
  } catch {
    /* unreadable settings: the theme key alone */
  }
  modeListeners.forEach((listener) => listener());
}

function screenPath(name: string, table: readonly RouteDef[] = routeTable): string | undefined {
  for (const route of table) {
    if (route.name === name && !route.children) return route.path;
    const nested = route.children && screenPath(name, route.children);
    if (nested) return nested;
  }
  return undefined;
}

/** The app a signed-in visitor goes back to: the order list, which every role has. */
export const appPath = screenPath(RouteNames.INSPECT) ?? '/';
