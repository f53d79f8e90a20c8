/**
 * Build-time prerender of /login (see scripts/prerender.ts and vite.config.ts): renders the
 * real login screen, in the default language and theme, inside the same providers and route
 * tree the browser uses, so main.tsx can hydrate it instead of rendering from scratch.
 * Returns the markup of #root and antd's styles for it (with the cache-path marker that
 * lets antd's CSS-in-JS reuse them in the browser instead of generating them again).
 *
 * Runs in Node (a Vite SSR build of this file): nothing here may touch window or document.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { iconStyles } from '@ant-design/icons/es/utils';
import hash from '@emotion/hash';
import { initReactI18next } from 'react-i18next';
import { AppProviders } from '../app/providers.tsx';
import { RootShell } from '../app/RootShell.tsx';
import { RouteError } from '../app/RouteError.tsx';
import LoginPage from '../features/auth/LoginPage.tsx';
import { DEFAULT_LOCALE, I18N_OPTIONS, i18n } from '../lib/i18n.ts';
import messages from '../locales/zh-CN.ts';

export interface Prerendered {
  /** The inner HTML of #root. */
  html: string;
  /** `<style>` elements: antd's CSS-in-JS for the markup, then its cache-path marker. */
  styles: string;
  locale: string;
}

/** The same i18next options as lib/i18n.ts's initI18n, with the default language bundled. */
async function initI18n(): Promise<void> {
  await i18n.use(initReactI18next).init({
    resources: { [DEFAULT_LOCALE]: { translation: messages } },
    lng: DEFAULT_LOCALE,
    ...I18N_OPTIONS,
  });
}

/**
 * The matched part of app/router.tsx's tree for /login: the root route (RootShell, same
 * ids) and the login screen, already loaded. Only matched routes render, so the markup is
 * what RouterProvider renders in the browser once the login chunk is in.
 */
const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootShell,
    ErrorBoundary: RouteError,
    children: [{ id: 'login', path: '/login', Component: LoginPage }],
  },
];

export async function render(): Promise<Prerendered> {
  await initI18n();
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/login'));
  if (context instanceof Response) throw new Error(`prerender: /login answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const cache = createCache();
  // The tree of main.tsx (StrictMode > App > AppProviders > router); StyleProvider only
  // collects antd's styles and renders no element, so React's ids (useId) stay the same.
  const html = renderToString(
    <StrictMode>
      <StyleProvider cache={cache}>
        <AppProviders>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProviders>
      </StyleProvider>
    </StrictMode>,
  );
  return { html, styles: iconStyle() + tokenStylesAsTheClientNamesThem(cache, extractStyle(cache)), locale: DEFAULT_LOCALE };
}

type Cache = ReturnType<typeof createCache>;

/**
 * antd's design-token style (the CSS variables) is extracted under one id (`_tokenKey`)
 * but looked up in the browser under another (`hash('css-var-' + key)`, @ant-design/cssinjs
 * 2.1 useCacheToken): left alone, the browser inserts a second copy of those 12 KB of CSS
 * while hydrating, and recomputes every style. Renamed here to the id the browser uses.
 */
function tokenStylesAsTheClientNamesThem(cache: Cache, styles: string): string {
  let out = styles;
  for (const [key, entry] of cache.cache) {
    if (!key.startsWith('token%')) continue;
    // The cache entry's layout is cssinjs's own; if it ever changes, skip (costs a duplicate only).
    const [, , realToken, , cssVarKey] = entry[1] as [unknown, unknown, { _tokenKey?: string } | undefined, unknown, unknown];
    if (!realToken?._tokenKey || typeof cssVarKey !== 'string') continue;
    out = out.replace(`data-css-hash="${realToken._tokenKey}"`, `data-css-hash="${hash(`css-var-${cssVarKey}`)}"`);
  }
  return out;
}

/**
 * The icons' own base style, which @ant-design/icons inserts from an effect (so the server
 * render has none), under the key it looks for: found in the page, it is not inserted again.
 */
function iconStyle(): string {
  return `<style data-rc-order="prepend" rc-util-key="@ant-design-icons">${iconStyles}</style>`;
}
