import { matchPath } from 'react-router';
import {
  canAccess as canAccessRule,
  menuRoutesOf,
  routeTable,
  RouteNames,
  type MenuIcon,
  type RouteDef,
  type RouteMeta as SharedRouteMeta,
  type ScreenName,
} from '@clearplay/contract/constants';
import type { MessageKey } from '../locales/zh-CN.ts';

/**
 * The web's view of THE route table (names, paths, titles, roles and menu placement), which
 * lives in the contract (`@clearplay/contract/constants`, constants/routes.ts) because the
 * server builds the server menu (POST /api/menu) from the same entries. The router
 * (app/router.tsx, which adds each screen's code from app/screens.ts), the side menu, the
 * breadcrumbs, the tab bar titles, the document title and the guards (app/guards.ts) are all
 * built from it, so navigation and routing cannot disagree. Decision 0054.
 *
 * This file imports no component: anything (a feature, a house component) may import it to
 * name or link a route without pulling the screens in.
 */

export { RouteNames };
export type { MenuIcon, ScreenName };

export type RouteMeta = SharedRouteMeta<MessageKey>;
/** A route of the table whose title key is one of the web's messages (config/paths.test.ts checks them). */
export type AppRoute = RouteDef<MessageKey>;

/** What every react-router route object carries in `handle`: its entry of the route table. */
export interface RouteHandle {
  route: AppRoute;
}

/** A route with a screen of its own (app/screens.ts has its code), as opposed to a group. */
export const isScreen = (route: AppRoute): boolean => !route.children;

export const routes: AppRoute[] = routeTable as AppRoute[];

// ---- Lookups over the table ------------------------------------------------------------

/** Every route with a screen, depth first, with its ancestors (for breadcrumbs). */
export interface RouteEntry {
  route: AppRoute;
  ancestors: AppRoute[];
}

function collect(list: AppRoute[], ancestors: AppRoute[], out: RouteEntry[]): RouteEntry[] {
  for (const route of list) {
    if (isScreen(route)) out.push({ route, ancestors });
    if (route.children) collect(route.children, route.layout ? ancestors : [...ancestors, route], out);
  }
  return out;
}

export const screenRoutes: readonly RouteEntry[] = collect(routes, [], []);

export const findRouteByName = (name: string | null | undefined): RouteEntry | undefined =>
  name ? screenRoutes.find((entry) => entry.route.name === name) : undefined;

/** The screen route that renders a pathname (the catch-all last). */
export function findRouteByPath(pathname: string): RouteEntry | undefined {
  const exact = screenRoutes.find((entry) => entry.route.path !== '*' && matchPath({ path: entry.route.path, end: true }, pathname));
  return exact ?? findRouteByName(RouteNames.NOT_FOUND);
}

/** The menu groups inside the default layout (what the side menu shows before role filtering). */
export const layoutRoutes: readonly AppRoute[] = routes.find((route) => route.layout)?.children ?? [];

/** Spec §5: allowed when the route needs no login or no roles, or the roles include '*' or the role. */
export const canAccess = (route: AppRoute, role: string | null | undefined): boolean => canAccessRule(route, role);

/**
 * Menu entries for a role, ordered; groups without a visible child disappear. `allowed` narrows
 * the screens further (the server menu).
 */
export const menuRoutes = (role: string | null | undefined, allowed?: (route: AppRoute) => boolean): AppRoute[] =>
  menuRoutesOf(routes, role, allowed);

/** Spec §5: the first route of the table (menu order) the role may see, if any. */
export function firstPermittedRoute(role: string | null | undefined, allowed?: (route: AppRoute) => boolean): AppRoute | undefined {
  const walk = (list: AppRoute[]): AppRoute | undefined => {
    for (const route of list) {
      if (route.children) {
        const found = walk(route.children);
        if (found) return found;
      } else return route;
    }
    return undefined;
  };
  return walk(menuRoutes(role, allowed));
}
