import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Messages } from '../locales/zh-CN.ts';
import { StorageKey, storage } from './storage.ts';

/** Spec §4/§9: zh-CN is the default, en-US the fallback; the choice is saved in localStorage. */
export const LOCALES = ['zh-CN', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
export const FALLBACK_LOCALE: Locale = 'en-US';

/** The i18next options every start shares: the app's, and the build's prerendered pages. */
export const I18N_OPTIONS = {
  fallbackLng: FALLBACK_LOCALE,
  supportedLngs: [...LOCALES],
  // Keys are flat ("menu.system.user" is one key), so dots and colons are not separators.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false }, // React escapes already
  returnNull: false,
} as const;

/** What the language switches show: each language in its own words. */
export const LOCALE_OPTIONS: ReadonlyArray<{ value: Locale; label: string }> = [
  { value: 'zh-CN', label: '简体中文' },
  { value: 'en-US', label: 'English' },
];

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** Each language is its own chunk: the page loads only the one it shows. */
const LOADERS: Record<Locale, () => Promise<{ default: Messages }>> = {
  'zh-CN': () => import('../locales/zh-CN.ts'),
  'en-US': () => import('../locales/en-US.ts'),
};

/**
 * Messages some pages add to the core ones, each part a chunk per language merged into the same
 * namespace, so the login page's first load carries neither:
 *   - `screens`: the logged-in screens' (tables, forms, the image uploader); the route guard loads
 *     them before a logged-in screen renders (`loadScreenMessages`);
 *   - `public`: the public pages' (landing, look-up, link store, certificate); the public entry
 *     asks for them when it starts (src/public.tsx, decision 0112).
 */
type Part = 'screens' | 'public';
type PartMessages = Record<string, string>;
const PART_LOADERS: Record<Part, Record<Locale, () => Promise<PartMessages>>> = {
  screens: {
    'zh-CN': async () => (await import('../locales/screens/zh-CN.ts')).default,
    'en-US': async () => (await import('../locales/screens/en-US.ts')).default,
  },
  public: {
    'zh-CN': async () => (await import('../locales/screens/public.zh-CN.ts')).publicZhCN,
    'en-US': async () => (await import('../locales/screens/public.en-US.ts')).publicEnUS,
  },
};

/**
 * More a language needs before it shows (antd's own texts, app/providers.tsx): registered at
 * import time, awaited by initI18n and setLocale for the language about to show, not for the
 * fallback's idle preload.
 */
const showLoaders: Array<(locale: Locale) => Promise<void>> = [];
export function beforeShowing(loader: (locale: Locale) => Promise<void>): void {
  showLoaders.push(loader);
}
const prepareToShow = (locale: Locale) => Promise.all(showLoaders.map((loader) => loader(locale)));

/** The parts asked for: once asked, later language switches load them too. */
const partsWanted = new Set<Part>();
/** Each chunk's load, started once (a failed one is tried again next time), by part and language. */
const loads = new Map<string, Promise<void>>();

function load(key: string, loader: () => Promise<PartMessages>, locale: Locale): Promise<void> {
  let loading = loads.get(key);
  if (!loading) {
    loading = loader().then((messages) => void i18n.addResourceBundle(locale, 'translation', messages, true, true));
    loading.catch(() => loads.delete(key));
    loads.set(key, loading);
  }
  return loading;
}

/** The core messages of `locale` and the parts wanted, side by side. */
async function ensureLoaded(locale: Locale): Promise<void> {
  await Promise.all([
    load(`core:${locale}`, async () => (await LOADERS[locale]()).default, locale),
    ...[...partsWanted].map((part) => load(`${part}:${locale}`, PART_LOADERS[part][locale], locale)),
  ]);
}

/** The screens' messages in the current language (and, once idle, the fallback's). Idempotent. */
export async function loadScreenMessages(): Promise<void> {
  partsWanted.add('screens');
  await ensureLoaded(currentLocale());
  if (currentLocale() !== FALLBACK_LOCALE) whenIdle(() => void ensureLoaded(FALLBACK_LOCALE).catch(() => undefined));
}

function savedLocale(): Locale {
  const saved = storage.read(StorageKey.LOCALE);
  return isLocale(saved) ? saved : DEFAULT_LOCALE;
}

/** The current locale; also what the API client sends as Accept-Language. */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/**
 * Loads the saved (or default) language, then starts i18next. main.tsx renders after it. The
 * public pages pass the language their address asks for (`?lang=`, decision 0069), which wins,
 * and their own messages (`public`), loaded with the core ones.
 */
export async function initI18n(preferred?: Locale, parts: readonly Part[] = []): Promise<void> {
  for (const part of parts) partsWanted.add(part);
  const initial = preferred ?? savedLocale();
  document.documentElement.lang = initial;
  await i18n.use(initReactI18next).init({
    resources: {},
    partialBundledLanguages: true,
    lng: initial,
    ...I18N_OPTIONS,
  });
  await Promise.all([ensureLoaded(initial), prepareToShow(initial)]);
  // The fallback is only needed for a key missing in the current language, and both locales
  // are type-checked (and tested) to have the same keys: the login and public pages never load
  // it (decision 0075); a logged-in screen loads it once the browser is idle (loadScreenMessages).
}

function whenIdle(task: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(task, { timeout: 5000 });
  else window.setTimeout(task, 2000);
}

export async function setLocale(locale: Locale): Promise<void> {
  await Promise.all([ensureLoaded(locale), prepareToShow(locale)]);
  storage.write(StorageKey.LOCALE, locale);
  document.documentElement.lang = locale;
  await i18n.changeLanguage(locale);
}

export { i18n };
