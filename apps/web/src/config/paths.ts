import { matchPath } from 'react-router';
import { RoleName } from '@clearplay/contract/constants';
import type { MessageKey } from '../locales/zh-CN.ts';

/**
 * THE route table, as plain data: names, paths, titles, roles and menu placement. The router
 * (app/router.tsx, which adds each screen's code from app/screens.ts), the side menu, the
 * breadcrumbs, the tab bar titles, the document title and the guards (app/guards.ts) are all
 * built from it, so navigation and routing cannot disagree.
 *
 * This file imports no component: anything (a feature, a house component) may import it to
 * name or link a route without pulling the screens in.
 */

/** Icons are named here and drawn by the side menu, so no icon code lands in the entry chunk. */
export type MenuIcon = 'dashboard' | 'order' | 'system' | 'visualization';

export interface RouteMeta {
  /** Translation key of the title (menu, breadcrumb, tab, document title). */
  locale: MessageKey;
  /** Needs a logged-in user (spec §5: only index, home, linkstore, verify and login are public). */
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
  /** Marks the pathless node whose children render inside the default layout. */
  layout?: 'default';
  /** A menu group (its index goes to its first screen) or the layout. Without children: a screen. */
  children?: AppRoute[];
}

/** What every react-router route object carries in `handle`: its entry of the route table. */
export interface RouteHandle {
  route: AppRoute;
}

/** A route with a screen of its own (app/screens.ts has its code), as opposed to a group. */
export const isScreen = (route: AppRoute): boolean => !route.children;

/** The name of every screen route (app/screens.ts has one screen per name). */
export const RouteNames = {
  INDEX: 'index',
  HOME: 'home',
  LINKSTORE: 'linkstore',
  VERIFY: 'verify',
  LOGIN: 'login',
  WORKPLACE: 'Workplace',
  MONITOR: 'Monitor',
  DATA_ANALYSIS: 'DataAnalysis',
  INSPECT: 'Inspect',
  USER: 'User',
  LOG: 'Log',
  ROLE: 'Role',
  DICT: 'Dict',
  MESSAGE: 'Message',
  USER_INFO: 'UserInfo',
  USER_SETTING: 'UserSetting',
  REDIRECT: 'redirect',
  NOT_FOUND: 'notFound',
} as const;
export type ScreenName = (typeof RouteNames)[keyof typeof RouteNames];

const SUPER_ADMIN_ONLY = [RoleName.SUPER_ADMIN] as const;
const ANY_ROLE = ['*'] as const;

export const routes: AppRoute[] = [
  {
    name: RouteNames.INDEX,
    path: '/',
    meta: { locale: 'route.home', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
  },
  {
    name: RouteNames.HOME,
    path: '/home',
    meta: { locale: 'route.home', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
  },
  {
    name: RouteNames.LINKSTORE,
    path: '/linkstore',
    meta: { locale: 'route.linkstore', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
  },
  {
    name: RouteNames.VERIFY,
    path: '/verify/:code',
    meta: { locale: 'public.verify.title', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
  },
  {
    name: RouteNames.LOGIN,
    path: '/login',
    meta: { locale: 'route.login', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
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
          },
          {
            name: RouteNames.MONITOR,
            path: '/dashboard/monitor',
            meta: { locale: 'menu.dashboard.monitor', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 1 },
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
          },
          {
            name: RouteNames.LOG,
            path: '/system/log',
            meta: { locale: 'menu.system.log', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 1 },
          },
          {
            name: RouteNames.ROLE,
            path: '/system/role',
            meta: { locale: 'menu.system.role', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 2 },
          },
          {
            name: RouteNames.DICT,
            path: '/system/dict',
            meta: { locale: 'menu.system.dict', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 3 },
          },
        ],
      },
      {
        name: 'visualization',
        path: '/visualization',
        meta: { locale: 'menu.visualization', requiresAuth: true, icon: 'visualization', order: 3 },
        children: [
          {
            name: RouteNames.DATA_ANALYSIS,
            path: '/visualization/data-analysis',
            meta: { locale: 'menu.visualization.dataAnalysis', requiresAuth: true, roles: SUPER_ADMIN_ONLY },
          },
        ],
      },
      {
        // The message box's full page ("view more"): every signed-in role, not in the menu.
        name: RouteNames.MESSAGE,
        path: '/user/message',
        meta: { locale: 'route.message', requiresAuth: true, roles: ANY_ROLE, hideInMenu: true },
      },
      {
        // The user menu's user centre and settings: every signed-in role, not in the side menu.
        name: RouteNames.USER_INFO,
        path: '/user/info',
        meta: { locale: 'route.userInfo', requiresAuth: true, roles: ANY_ROLE, hideInMenu: true },
      },
      {
        name: RouteNames.USER_SETTING,
        path: '/user/setting',
        meta: { locale: 'route.userSetting', requiresAuth: true, roles: ANY_ROLE, hideInMenu: true },
      },
      {
        // Tab "reload": /redirect/<encoded path> re-navigates to the path, remounting the screen.
        name: RouteNames.REDIRECT,
        path: '/redirect/:path',
        meta: { locale: 'route.redirect', requiresAuth: true, roles: ANY_ROLE, hideInMenu: true, hideInTabBar: true },
      },
    ],
  },
  {
    name: RouteNames.NOT_FOUND,
    path: '*',
    meta: { locale: 'route.notFound', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
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
export function canAccess(route: AppRoute, role: string | null | undefined): boolean {
  const { requiresAuth, roles } = route.meta;
  if (!requiresAuth || !roles) return true;
  return roles.includes('*') || (!!role && roles.includes(role));
}

const byOrder = (a: AppRoute, b: AppRoute) => (a.meta.order ?? 0) - (b.meta.order ?? 0);

/** Menu entries for a role, ordered; groups without a visible child disappear. */
export function menuRoutes(role: string | null | undefined): AppRoute[] {
  const visible = (route: AppRoute): AppRoute | null => {
    if (route.meta.hideInMenu) return null;
    if (route.children) {
      const children = route.children
        .map(visible)
        .filter((child): child is AppRoute => child !== null)
        .sort(byOrder);
      return children.length ? { ...route, children } : null;
    }
    return canAccess(route, role) ? route : null;
  };
  return layoutRoutes
    .map(visible)
    .filter((route): route is AppRoute => route !== null)
    .sort(byOrder);
}

/** Spec §5: the first route of the table (menu order) the role may see, if any. */
export function firstPermittedRoute(role: string | null | undefined): AppRoute | undefined {
  const walk = (list: AppRoute[]): AppRoute | undefined => {
    for (const route of list) {
      if (route.children) {
        const found = walk(route.children);
        if (found) return found;
      } else return route;
    }
    return undefined;
  };
  return walk(menuRoutes(role));
}
