import { data, redirect } from 'react-router';
import type { CurrentUser } from '@clearplay/contract';
import { SESSION_ENDED_STATUSES, Status } from '@clearplay/contract/constants';
import { canAccess, firstPermittedRoute, type AppRoute } from '../config/paths.ts';
import { userInfoQueryOptions } from '../features/auth/api/get-user-info.ts';
import { loginLocation } from '../features/auth/redirect.ts';
import { fetchServerMenu } from '../features/settings/api/server-menu.ts';
import { resetUser, userStore } from '../lib/current-user.ts';
import { loadDicts } from '../lib/dicts.ts';
import { ApiError } from '../lib/api-client.ts';
import { queryClient } from '../lib/query-client.ts';
import { loadScreenMessages } from '../lib/i18n.ts';
import { appStore, serverMenuNames, setServerMenu } from '../lib/settings.ts';
import { getToken, isLoggedIn } from '../lib/storage.ts';
import { logout } from './session.ts';

/**
 * The route guards (docs/product.md "The back office"), run as the loader of every screen route before it renders.
 *
 * 1. Login guard: a route that needs login, without a token -> /login?redirect=<route name>
 *    &<original query>. With a token, the user info is loaded once (cached for the session);
 *    if that fails the user is logged out and sent to login the same way. After user info,
 *    the dictionaries are loaded.
 * 2. Role guard: allowed when meta.roles has '*' or the user's role name and, with "menu from
 *    server" on, the route is in the server menu (POST /api/menu, fetched once per session;
 *    routes hidden from menus, like /redirect, need only the role); otherwise the first
 *    permitted route of the table, else not-found.
 */

/** The token whose user is loaded, or being loaded: a new login means a new user. */
let userToken: string | null = null;

/** The first time a token is seen, nothing of the previous session's user and data stays. */
function adopt(token: string | null): void {
  if (token === userToken) return;
  if (userStore.get() !== null || userToken !== null) {
    // Logged in again (maybe as someone else) without a logout.
    resetUser();
    queryClient.clear();
  }
  userToken = token;
}

async function ensureUser(): Promise<CurrentUser> {
  adopt(getToken());
  const known = userStore.get();
  if (known) return known;
  // The login form may have started this already (prefetchUser): then it is awaited, not asked again.
  const user = await queryClient.ensureQueryData(userInfoQueryOptions());
  userStore.set(user);
  loadDicts();
  return user;
}

/**
 * Starts loading the user of the token just stored, while the login form still asks for the
 * saved language: the guard then finds it in the cache or on its way. A failure is the
 * guard's to handle (it asks again and logs out).
 */
export function prefetchUser(): void {
  if (!isLoggedIn()) return;
  adopt(getToken());
  if (userStore.get() === null) void queryClient.prefetchQuery(userInfoQueryOptions());
}

/** The server menu's route names, loaded once per session while the setting is on. */
async function ensureServerMenuNames(): Promise<Set<string>> {
  const known = appStore.get().serverMenu;
  if (known) return serverMenuNames(known);
  const menu = await fetchServerMenu();
  setServerMenu(menu);
  return serverMenuNames(menu);
}

const notFound = () => data(null, { status: 404, statusText: 'Not Found' });

export async function guard(route: AppRoute, request: Request): Promise<null> {
  if (!route.meta.requiresAuth) return null;
  const url = new URL(request.url);

  if (!isLoggedIn()) throw redirect(loginLocation(route.name, url.searchParams));

  // The logged-in screens' messages (a chunk of their own, see lib/i18n.ts) before they render:
  // loaded beside the user, not after (a failure is the await's below, or nobody's once logged out).
  const messages = loadScreenMessages();
  void messages.catch(() => undefined);

  let user: CurrentUser;
  try {
    user = await ensureUser();
  } catch (error) {
    // A dead session has nothing left to end on the server; anything else is logged out there too.
    const sessionOver =
      error instanceof ApiError && (error.status === Status.UNAUTHORIZED || SESSION_ENDED_STATUSES.includes(error.status));
    await logout({ callServer: !sessionOver });
    throw redirect(loginLocation(route.name, url.searchParams));
  }

  await messages;

  const role = user.role.name;
  if (appStore.get().menuFromServer) {
    const names = await ensureServerMenuNames();
    const allowed = (candidate: AppRoute) => names.has(candidate.name);
    if (canAccess(route, role) && (route.meta.hideInMenu || allowed(route))) return null;
    const first = firstPermittedRoute(role, allowed);
    throw first ? redirect(first.path) : notFound();
  }
  if (canAccess(route, role)) return null;
  const first = firstPermittedRoute(role);
  throw first ? redirect(first.path) : notFound();
}
