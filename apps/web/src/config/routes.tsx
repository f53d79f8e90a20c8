import type { ComponentType } from 'react';
import { matchPath } from 'react-router';
import { RoleName } from '@clearplay/contract';
import type { MessageKey } from '../locales/zh-CN.ts';

/**
 * THE route table. The router (app/router.tsx), the side menu, the breadcrumbs, the tab bar
 * titles, the document title and the guards (app/guards.ts) are all built from it, so
 * navigation and routing cannot disagree. Every screen is lazy-loaded.
 */

/** Icons are named here and drawn by the side menu, so no icon code lands in the entry chunk. */
export type MenuIcon = 'dashboard' | 'order' | 'system';

export interface RouteMeta {
  /** Translation key of the title (menu, breadcrumb, tab, document title). */
  locale: MessageKey;
  /** Needs a logged-in user (spec §5: only index, home, linkstore and login are public). */
  requiresAuth: boolean;
  /** Role names allowed; '*' = every logged-in role. Unset on a group = its children decide. */
  roles?: readonly string[];
  icon?: MenuIcon;
  hideInMenu?: boolean;
  /** Menu order among siblings (ascending). */
  order?: number;
  hideInTabBar?: boolean;
}

export interface AppRoute {
  name: string;
  /** Absolute path (children repeat their parent's prefix). Empty for the pathless layout. */
  path: string;
  meta: RouteMeta;
  /** The screen, lazy-loaded. Groups without a screen send their index to the first child. */
  load?: () => Promise<{ default: ComponentType }>;
  /** Marks the pathless node whose children render inside the default layout. */
  layout?: 'default';
  children?: AppRoute[];
}

export const RouteNames = {
  INDEX: 'index',
  HOME: 'home',
  LINKSTORE: 'linkstore',
  LOGIN: 'login',
  WORKPLACE: 'Workplace',
  INSPECT: 'Inspect',
  USER: 'User',
  LOG: 'Log',
  ROLE: 'Role',
  DICT: 'Dict',
  REDIRECT: 'redirect',
  NOT_FOUND: 'notFound',
} as const;

const SUPER_ADMIN_ONLY = [RoleName.SUPER_ADMIN] as const;
const ANY_ROLE = ['*'] as const;

export const routes: AppRoute[] = [
  {
    name: RouteNames.INDEX,
    path: '/',
    meta: { locale: 'route.home', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
    load: () => import('../features/landing/LandingPage.tsx'),
  },
  {
    name: RouteNames.HOME,
    path: '/home',
    meta: { locale: 'route.home', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
    load: () => import('../features/landing/LandingPage.tsx'),
  },
  {
    name: RouteNames.LINKSTORE,
    path: '/linkstore',
    meta: { locale: 'route.linkstore', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
    load: () => import('../features/linkstore/LinkStorePage.tsx'),
  },
  {
    name: RouteNames.LOGIN,
    path: '/login',
    meta: { locale: 'route.login', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
    load: () => import('../features/auth/LoginPage.tsx'),
  },
  {
    name: 'defaultLayout',
    path: '',
    layout: 'default',
    meta: { locale: 'app.name', requiresAuth: true },
    children: [
      {
        name: 'dashboard',
        path: '/dashboard',
        meta: { locale: 'menu.dashboard', requiresAuth: true, icon: 'dashboard', order: 0 },
        children: [
          {
            name: RouteNames.WORKPLACE,
            path: '/dashboard/workplace',
            meta: { locale: 'menu.dashboard.workplace', requiresAuth: true, roles: SUPER_ADMIN_ONLY },
            load: () => import('../features/workplace/WorkplacePage.tsx'),
          },
        ],
      },
      {
        name: 'order',
        path: '/order',
        meta: { locale: 'menu.order', requiresAuth: true, icon: 'order', order: 1 },
        children: [
          {
            name: RouteNames.INSPECT,
            path: '/order/inspect',
            meta: { locale: 'menu.order.inspect', requiresAuth: true, roles: ANY_ROLE },
            load: () => import('../features/orders/InspectPage.tsx'),
          },
        ],
      },
      {
        name: 'system',
        path: '/system',
        meta: { locale: 'menu.system', requiresAuth: true, icon: 'system', order: 2 },
        children: [
          {
            name: RouteNames.USER,
            path: '/system/user',
            meta: { locale: 'menu.system.user', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 0 },
            load: () => import('../features/users/UsersPage.tsx'),
          },
          {
            name: RouteNames.LOG,
            path: '/system/log',
            meta: { locale: 'menu.system.log', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 1 },
            load: () => import('../features/logs/LogsPage.tsx'),
          },
          {
            name: RouteNames.ROLE,
            path: '/system/role',
            meta: { locale: 'menu.system.role', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 2 },
            load: () => import('../features/roles/RolesPage.tsx'),
          },
          {
            name: RouteNames.DICT,
            path: '/system/dict',
            meta: { locale: 'menu.system.dict', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 3 },
            load: () => import('../features/dicts/DictsPage.tsx'),
          },
        ],
      },
      {
        // Tab "reload": /redirect/<encoded path> re-navigates to the path, remounting the screen.
        name: RouteNames.REDIRECT,
        path: '/redirect/:path',
        meta: { locale: 'route.redirect', requiresAuth: true, roles: ANY_ROLE, hideInMenu: true, hideInTabBar: true },
        load: () => import('../app/RedirectPage.tsx'),
      },
    ],
  },
  {
    name: RouteNames.NOT_FOUND,
    path: '*',
    meta: { locale: 'route.notFound', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
    load: () => import('../components/NotFound.tsx'),
  },
];

// ---- Lookups over the table ------------------------------------------------------------

/** Every route with a screen, depth first, with its ancestors (for breadcrumbs). */
export interface RouteEntry {
  route: AppRoute;
  ancestors: AppRoute[];
}

function collect(list: AppRoute[], ancestors: AppRoute[], out: RouteEntry[]): RouteEntry[] {
  for (const route of list) {
    if (route.load) out.push({ route, ancestors });
    if (route.children) collect(route.children, route.layout ? ancestors : [...ancestors, route], out);
  }
  return out;
}

export const screenRoutes: readonly RouteEntry[] = collect(routes, [], []);

export const findRouteByName = (name: string | null | undefined): RouteEntry | undefined =>
  name ? screenRoutes.find((entry) => entry.route.name === name) : undefined;

/** The screen route that renders a pathname (the catch-all last). */
export function findRouteByPath(pathname: string): RouteEntry | undefined {
  const exact = screenRoutes.find(
    (entry) => entry.route.path !== '*' && matchPath({ path: entry.route.path, end: true }, pathname),
  );
  return exact ?? findRouteByName(RouteNames.NOT_FOUND);
}

/** The menu groups inside the default layout (what the side menu shows before role filtering). */
export const layoutRoutes: readonly AppRoute[] = routes.find((route) => route.layout)?.children ?? [];

/** Spec §5: allowed when the route needs no login or no roles, or the roles include '*' or the role. */
export function canAccess(route: AppRoute, role: string | null | undefined): boolean {
  const { requiresAuth, roles } = route.meta;
  if (!requiresAuth || !roles) return true;
  return roles.includes('*') || (!!role && roles.includes(role));
}

const byOrder = (a: AppRoute, b: AppRoute) => (a.meta.order ?? 0) - (b.meta.order ?? 0);

/** Menu entries for a role, ordered; groups without a visible child disappear. */
export function menuRoutes(role: string | null | undefined, allowed: (route: AppRoute) => boolean = () => true): AppRoute[] {
  const visible = (route: AppRoute): AppRoute | null => {
    if (route.meta.hideInMenu) return null;
    if (route.children) {
      const children = route.children.map(visible).filter((child): child is AppRoute => child !== null).sort(byOrder);
      return children.length ? { ...route, children } : null;
    }
    return canAccess(route, role) && allowed(route) ? route : null;
  };
  return layoutRoutes.map(visible).filter((route): route is AppRoute => route !== null).sort(byOrder);
}

/** Spec §5: the first route of the table (menu order) the role may see, if any. */
export function firstPermittedRoute(role: string | null | undefined, allowed?: (route: AppRoute) => boolean): AppRoute | undefined {
  const walk = (list: AppRoute[]): AppRoute | undefined => {
    for (const route of list) {
      if (route.children) {
        const found = walk(route.children);
        if (found) return found;
      } else if (route.load) return route;
    }
    return undefined;
  };
  return walk(menuRoutes(role, allowed));
}
