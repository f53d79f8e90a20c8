/**
 * Build-time prerender of the public pages `/` (also `/home`) and `/linkstore`, each in both
 * languages (decision 0068): the markup of #root as src/public.tsx renders it before any data
 * call has answered, and the page's title and description. vite.config.ts writes them into
 * public.html with the head tags of decision 0069.
 *
 * Runs in Node (a Vite SSR build of this file): nothing here may touch window or document.
 */
import { renderToString } from 'react-dom/server';
import { initReactI18next } from 'react-i18next';
import { PublicApp } from '../app/PublicApp.tsx';
import { PAGE_HEAD, pageTitle } from '../features/landing/index.ts';
import { DEFAULT_LOCALE, I18N_OPTIONS, LOCALES, i18n, type Locale } from '../lib/i18n.ts';
import enUS from '../locales/en-US.ts';
import { publicEnUS } from '../locales/screens/public.en-US.ts';
import { publicZhCN } from '../locales/screens/public.zh-CN.ts';
import zhCN from '../locales/zh-CN.ts';

export interface PublicPrerendered {
  /** `landing` (`/`, `/home`) or `linkstore`. */
  name: keyof typeof PAGE_HEAD;
  /** The canonical path. */
  path: string;
  locale: Locale;
  /** The inner HTML of #root. */
  html: string;
  title: string;
  description: string;
}

const PAGES = [
  { name: 'landing', path: '/' },
  { name: 'linkstore', path: '/linkstore' },
] as const;

export async function render(): Promise<PublicPrerendered[]> {
  await i18n.use(initReactI18next).init({
    resources: { 'zh-CN': { translation: { ...zhCN, ...publicZhCN } }, 'en-US': { translation: { ...enUS, ...publicEnUS } } },
    lng: DEFAULT_LOCALE,
    ...I18N_OPTIONS,
  });
  const out: PublicPrerendered[] = [];
  for (const locale of LOCALES) {
    await i18n.changeLanguage(locale);
    for (const page of PAGES) {
      const head = PAGE_HEAD[page.name];
      out.push({
        ...page,
        locale,
        html: renderToString(<PublicApp path={page.path} />),
        title: pageTitle(i18n.t(head.title)),
        description: i18n.t(head.description),
      });
    }
  }
  return out;
}
