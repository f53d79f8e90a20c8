import { Activity, useState, type ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { RouteNames, findRouteByPath } from '../../config/paths.ts';
import { useStore } from '../../lib/store.ts';
import { tabStore } from './tab-store.ts';

/** At most this many screens are kept alive (the least recently shown goes first). */
export const KEEP_ALIVE_LIMIT = 10;

/**
 * The layout's outlet with the tab bar on: each tab's screen stays mounted while another tab is
 * shown (React's <Activity mode="hidden">: state kept — filters, page, selected rows, an open
 * modal, scroll — effects paused), so switching back shows it as it was. Bounded: only screens
 * that still have a tab, at most KEEP_ALIVE_LIMIT. The tab bar's "reload" (/redirect/…) drops
 * the screen's cache, so it mounts afresh.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const tabs = useStore(tabStore);
  // A cache, not state: it is rewritten during render from the outlet and the tabs, never set.
  const [map] = useState(() => new Map<string, ReactNode>());
  const route = findRouteByPath(pathname)?.route;
  const name = route?.name ?? '';
  // Screens with a tab (the tab itself is added once the navigation has settled).
  const cacheable = !!route && !route.meta.hideInTabBar && name !== RouteNames.REDIRECT;

  if (name === RouteNames.REDIRECT) {
    // /redirect/<path>: the target screen starts over.
    const target = decodeURIComponent(pathname.slice('/redirect/'.length));
    map.delete(findRouteByPath(target.startsWith('/') ? target : `/${target}`)?.route.name ?? '');
  }
  const tabNames = new Set(tabs.map((tab) => tab.name));
  if (cacheable) {
    // Most recently shown last; the current element replaces the cached one (new query, new match).
    map.delete(name);
    map.set(name, outlet);
  }
  for (const key of [...map.keys()]) if (key !== name && !tabNames.has(key)) map.delete(key);
  while (map.size > KEEP_ALIVE_LIMIT) map.delete(map.keys().next().value as string);

  const current = map.has(name) ? null : outlet;
  return (
    <>
      {[...map].map(([key, element]) => (
        <Activity key={key} mode={key === name ? 'visible' : 'hidden'}>
          {element}
        </Activity>
      ))}
      {current}
    </>
  );
}
