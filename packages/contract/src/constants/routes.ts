import { RoleName } from './roles.ts';

/**
 * THE route table, as plain data shared by the web and the server: names, paths, title keys,
 * roles and menu placement. The web (apps/web/src/config/paths.ts) builds its router, side
 * menu, breadcrumbs, tabs, document titles and guards from it; the server (modules/menu) builds
 * the server menu (POST /api/menu) from the same entries and the same role rule, so
 * the two cannot disagree. Decision 0054.
 *
 * A new screen: its name in RouteNames, its entry below (an object of the same shape as the
 * others), its title key in the web's locale files and its page in apps/web/src/app/screens.ts.
 */

/** Icons are named here and drawn by the web's menu, so no icon code lands in the entry chunk. */
export type MenuIcon = 'dashboard' | 'order' | 'system' | 'visualization' | 'exception' | 'form';

export interface RouteMeta<L extends string = string> {
  /** Translation key of the title (menu, breadcrumb, tab, document title). */
  locale: L;
  /** Needs a logged-in user (only index, home, linkstore, verify and login are public). */
  requiresAuth: boolean;
  /** Role names allowed; '*' = every logged-in role. Unset on a group = its children decide. */
  roles?: readonly string[];
  icon?: MenuIcon;
  hideInMenu?: boolean;
  /** Menu order among siblings (ascending). */
  order?: number;
  hideInTabBar?: boolean;
}

export interface RouteDef<L extends string = string> {
  name: string;
  /** Absolute path (children repeat their parent's prefix). Empty for the pathless layout. */
  path: string;
  meta: RouteMeta<L>;
  /** Marks the pathless node whose children render inside the default layout. */
  layout?: 'default';
  /** A menu group (its index goes to its first screen) or the layout. Without children: a screen. */
  children?: RouteDef<L>[];
}

/** A route with a screen of its own, as opposed to a group. */
export const isScreen = (route: RouteDef): boolean => !route.children;

/** The name of every screen route (the web's app/screens.ts has one screen per name). */
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
  EXCEPTION_403: 'Exception403',
  EXCEPTION_404: 'Exception404',
  EXCEPTION_500: 'Exception500',
  REDIRECT: 'redirect',
  NOT_FOUND: 'notFound',
  ORDER_FORM: 'OrderForm',
  ORDER_PROFILE: 'OrderProfile',
  RESULT_SUCCESS: 'ResultSuccess',
  RESULT_FAIL: 'ResultFail',
} as const;
export type ScreenName = (typeof RouteNames)[keyof typeof RouteNames];

const SUPER_ADMIN_ONLY = [RoleName.SUPER_ADMIN] as const;
const ANY_ROLE = ['*'] as const;
/** The roles that record orders (docs/product.md "People and what each may do"): the order form and its result pages. */
const ORDER_WRITERS = [RoleName.SUPER_ADMIN, RoleName.ADMIN, RoleName.INSPECTOR] as const;

export const routeTable: RouteDef[] = [
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
        // Server-menu "exception" (docs/product.md "The back office"): the 403/404/500 pages the router's error boundary shows.
        name: 'exception',
        path: '/exception',
        meta: { locale: 'menu.exception', requiresAuth: true, icon: 'exception', order: 4 },
        children: [
          {
            name: RouteNames.EXCEPTION_403,
            path: '/exception/403',
            meta: { locale: 'menu.exception.403', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 0 },
          },
          {
            name: RouteNames.EXCEPTION_404,
            path: '/exception/404',
            meta: { locale: 'menu.exception.404', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 1 },
          },
          {
            name: RouteNames.EXCEPTION_500,
            path: '/exception/500',
            meta: { locale: 'menu.exception.500', requiresAuth: true, roles: SUPER_ADMIN_ONLY, order: 2 },
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
      {
        // Server-menu "form" (docs/product.md "The back office"): the full-page order form. Decision 0064.
        name: 'form',
        path: '/form',
        meta: { locale: 'menu.form', requiresAuth: true, icon: 'form', order: 1.5 },
        children: [
          {
            name: RouteNames.ORDER_FORM,
            path: '/form/order',
            meta: { locale: 'menu.form.order', requiresAuth: true, roles: ORDER_WRITERS },
          },
        ],
      },
      {
        // Server-menu "profile": an order's profile page, opened from an order (not in the menu: it needs one).
        name: 'profile',
        path: '/profile',
        meta: { locale: 'menu.profile', requiresAuth: true, hideInMenu: true },
        children: [
          {
            name: RouteNames.ORDER_PROFILE,
            path: '/profile/order/:id',
            meta: { locale: 'menu.profile.order', requiresAuth: true, roles: ANY_ROLE, hideInMenu: true },
          },
        ],
      },
      {
        // Server-menu "result": what a submit from the form page or an import leads to (not in the menu, no tab).
        name: 'result',
        path: '/result',
        meta: { locale: 'menu.result', requiresAuth: true, hideInMenu: true },
        children: [
          {
            name: RouteNames.RESULT_SUCCESS,
            path: '/result/success',
            meta: { locale: 'menu.result.success', requiresAuth: true, roles: ORDER_WRITERS, hideInMenu: true, hideInTabBar: true },
          },
          {
            name: RouteNames.RESULT_FAIL,
            path: '/result/fail',
            meta: { locale: 'menu.result.fail', requiresAuth: true, roles: ORDER_WRITERS, hideInMenu: true, hideInTabBar: true },
          },
        ],
      },
    ],
  },
  {
    name: RouteNames.NOT_FOUND,
    path: '*',
    meta: { locale: 'route.notFound', requiresAuth: false, hideInMenu: true, hideInTabBar: true },
  },
];

// ---- Rules over the table (the web and the server use the same ones) -------------------

/** The menu groups inside the default layout (what the menu shows before role filtering). */
export const layoutRoutes = <R extends RouteDef>(table: readonly R[]): R[] => (table.find((route) => route.layout)?.children ?? []) as R[];

/** Spec §5: allowed when the route needs no login or no roles, or the roles include '*' or the role. */
export function canAccess(route: RouteDef, role: string | null | undefined): boolean {
  const { requiresAuth, roles } = route.meta;
  if (!requiresAuth || !roles) return true;
  return roles.includes('*') || (!!role && roles.includes(role));
}

const byOrder = (a: RouteDef, b: RouteDef) => (a.meta.order ?? 0) - (b.meta.order ?? 0);

/**
 * Menu entries of a table for a role, ordered; groups without a visible child disappear.
 * `allowed` narrows the screens further (the web passes the server menu).
 */
export function menuRoutesOf<R extends RouteDef>(
  table: readonly R[],
  role: string | null | undefined,
  allowed: (route: R) => boolean = () => true,
): R[] {
  const visible = (route: R): R | null => {
    if (route.meta.hideInMenu) return null;
    if (route.children) {
      const children = (route.children as R[])
        .map(visible)
        .filter((child): child is R => child !== null)
        .sort(byOrder);
      return children.length ? { ...route, children } : null;
    }
    return canAccess(route, role) && allowed(route) ? route : null;
  };
  return layoutRoutes(table)
    .map(visible)
    .filter((route): route is R => route !== null)
    .sort(byOrder);
}

/** One entry of the server menu (POST /api/menu): a route of the table, without its rules. */
export interface ServerMenuEntry {
  name: string;
  path: string;
  /** The web's translation key of the title. */
  locale: string;
  icon?: MenuIcon;
  children?: ServerMenuEntry[];
}

/** Spec §4 server menu: the menu of a role, as the server sends it. */
export function serverMenuFor(role: string): ServerMenuEntry[] {
  const toEntry = (route: RouteDef): ServerMenuEntry => ({
    name: route.name,
    path: route.path,
    locale: route.meta.locale,
    ...(route.meta.icon ? { icon: route.meta.icon } : {}),
    ...(route.children ? { children: route.children.map(toEntry) } : {}),
  });
  return menuRoutesOf(routeTable, role).map(toEntry);
}
