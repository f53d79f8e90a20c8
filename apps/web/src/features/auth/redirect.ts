import { RouteNames, findRouteByName } from '../../config/paths.ts';

/** Spec §5: /login?redirect=<target route name>&<the original query>. */
export function loginLocation(routeName: string, search: URLSearchParams): string {
  const query = new URLSearchParams({ redirect: routeName });
  search.forEach((value, key) => {
    if (key !== 'redirect') query.append(key, value);
  });
  return `/login?${query.toString()}`;
}

/**
 * Where a successful login goes: the route named by `redirect`, with the rest of the query.
 * Without one (or with a name that is not a logged-in screen) it is the Workplace, and the
 * role guard moves roles that may not see it to their first permitted route (Inspect).
 */
export function afterLoginLocation(search: URLSearchParams): string {
  const target = findRouteByName(search.get('redirect'));
  const query = new URLSearchParams(search);
  query.delete('redirect');
  const rest = query.toString();
  const usable = target && target.route.meta.requiresAuth && !target.route.path.includes(':');
  const path = usable ? target.route.path : (findRouteByName(RouteNames.WORKPLACE)?.route.path ?? '/');
  return rest ? `${path}?${rest}` : path;
}
