import { createBrowserRouter, matchRoutes, redirect, type RouteObject } from 'react-router';
import { findRouteByPath, isScreen, routes, type AppRoute, type RouteHandle, type ScreenName } from '../config/paths.ts';
import { loginLocation } from '../features/auth/redirect.ts';
import { trackRouteChange } from '../features/tracking/index.ts';
import { loadScreenMessages } from '../lib/i18n.ts';
import { emitRouteChange, type RouteChange } from '../lib/route-listener.ts';
import { isLoggedIn } from '../lib/storage.ts';
import { registerWarmUp } from '../lib/warm-up.ts';
import { RootShell } from './RootShell.tsx';
import { RouteError } from './RouteError.tsx';
import { screens, signedIn } from './screens.ts';

const ignore = () => undefined;

function firstScreenPath(route: AppRoute): string | undefined {
  for (const child of route.children ?? []) {
    if (isScreen(child) && !child.path.includes(':')) return child.path;
    const nested = firstScreenPath(child);
    if (nested) return nested;
  }
  return undefined;
}

/** Route table entry (config/paths.ts) -> react-router route object (lazy screen of app/screens.ts + guard loader). */
function toRouteObject(route: AppRoute): RouteObject {
  const handle: RouteHandle = { route };
  if (route.layout) {
    return {
      id: route.name,
      handle,
      lazy: async () => ({ Component: (await (await signedIn()).layout()).default }),
      children: (route.children ?? []).map(toRouteObject),
    };
  }
  if (route.children) {
    // A menu group (/system): its own path goes to its first screen.
    const first = firstScreenPath(route);
    return {
      id: route.name,
      path: route.path,
      handle,
      children: [{ index: true, loader: () => redirect(first ?? '/') }, ...route.children.map(toRouteObject)],
    };
  }
  const load = screens[route.name as ScreenName] as (typeof screens)[ScreenName] | undefined;
  if (!load) throw new Error(`route ${route.name} has neither a screen (app/screens.ts) nor children`);
  return {
    id: route.name,
    path: route.path,
    handle,
    loader: async ({ request }) => {
      if (!route.meta.requiresAuth) return null;
      // Logged out: straight to login, without loading the guard's code (app/guards.ts).
      if (!isLoggedIn()) throw redirect(loginLocation(route.name, new URL(request.url).searchParams));
      const { guard } = await import('./guards.ts');
      const allowed = await guard(route, request);
      // Let in: the screen's first data is asked for now, while its code loads and the layout renders.
      void signedIn()
        .then((module) => module.screenData[route.name]?.())
        .catch(ignore);
      return allowed;
    },
    lazy: async () => ({ Component: (await load()).default }),
  };
}

export const router = createBrowserRouter([
  {
    id: 'root',
    Component: RootShell,
    ErrorBoundary: RouteError,
    HydrateFallback: () => null,
    children: routes.map(toRouteObject),
  },
]);

/**
 * What the login form starts early (lib/warm-up.ts): the signed-in screens' table once the user
 * starts on the form; the chunks a navigation to the screen
 * would load only once it starts (the layout's, the screen's, the guard's, the screens'
 * messages), fetched and parsed while the sign-in call runs; and the signed-in user, beside the
 * saved-language call. React Router runs the same `lazy` again when it navigates: the browser
 * has the module by then.
 */
registerWarmUp({
  screen: (location) => {
    for (const { route } of matchRoutes(router.routes, location) ?? []) {
      if (typeof route.lazy === 'function') void Promise.resolve(route.lazy()).catch(ignore);
    }
    void import('./guards.ts').catch(ignore);
    void loadScreenMessages().catch(ignore);
  },
  user: () => void import('./guards.ts').then(({ prefetchUser }) => prefetchUser(), ignore),
  code: () => void signedIn().catch(ignore),
});

// Feed finished navigations to the route-change listeners (tab bar) and to the visit
// tracking, which is no listener (logout removes those) so public pages count too.
function emit(): void {
  const { location, navigation } = router.state;
  if (navigation.state !== 'idle') return;
  const entry = findRouteByPath(location.pathname);
  const change: RouteChange = {
    name: entry?.route.name ?? '',
    pathname: location.pathname,
    search: location.search,
    fullPath: location.pathname + location.search,
  };
  emitRouteChange(change);
  trackRouteChange(change, entry?.route.meta.requiresAuth !== true);
}

let lastKey = '';
router.subscribe((state) => {
  if (state.navigation.state !== 'idle' || !state.initialized || state.location.key === lastKey) return;
  lastKey = state.location.key;
  emit();
});
