import { RouteNames, findRouteByName, firstPermittedRoute } from '../../config/paths.ts';
import { userStore } from '../../lib/current-user.ts';
import type { MessageKey } from '../../locales/zh-CN.ts';
import type { RouteChange } from '../../lib/route-listener.ts';
import { StorageKey, sessionStore } from '../../lib/storage.ts';
import { createStore } from '../../lib/store.ts';

/** One tab per visited screen (keyed by route name; it remembers the last path and query). */
export interface TabItem {
  name: string;
  fullPath: string;
  title: MessageKey;
}

/**
 * The tabs saved in this browser tab's session (they survive a reload): only screens of the
 * table, each titled from the table, so a stale or edited entry cannot show a wrong tab.
 */
export function savedTabs(): TabItem[] {
  let saved: unknown;
  try {
    saved = JSON.parse(sessionStore.read(StorageKey.TABS) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(saved)) return [];
  const tabs: TabItem[] = [];
  for (const item of saved as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const { name, fullPath } = item as Record<string, unknown>;
    const entry = typeof name === 'string' ? findRouteByName(name) : undefined;
    if (!entry || entry.route.meta.hideInTabBar || typeof fullPath !== 'string' || !fullPath.startsWith('/')) continue;
    if (tabs.some((tab) => tab.name === entry.route.name)) continue;
    tabs.push({ name: entry.route.name, fullPath, title: entry.route.meta.locale });
  }
  return tabs;
}

export const tabStore = createStore<TabItem[]>(savedTabs());
tabStore.subscribe(() => sessionStore.write(StorageKey.TABS, JSON.stringify(tabStore.get())));

// A new user starts with fresh tabs.
userStore.subscribe(() => {
  if (!userStore.get()) tabStore.set([]);
});

/**
 * Spec §2: the tab bar starts with the Workplace tab; a role that may not see the
 * Workplace starts with its first permitted route instead.
 */
export function defaultTab(role: string | null): TabItem | null {
  // The table lists the Workplace first, so this is the Workplace whenever the role may see it.
  const route = firstPermittedRoute(role);
  return route ? { name: route.name, fullPath: route.path, title: route.meta.locale } : null;
}

export function initTabs(role: string | null): void {
  if (tabStore.get().length) return;
  const first = defaultTab(role);
  tabStore.set(first ? [first] : []);
}

/** Route-change listener: adds (or updates) the tab of the screen shown; skips the redirect route. */
export function addTab(change: RouteChange): void {
  const entry = findRouteByName(change.name);
  if (!entry || entry.route.name === RouteNames.REDIRECT || entry.route.meta.hideInTabBar) return;
  const tab: TabItem = { name: entry.route.name, fullPath: change.fullPath, title: entry.route.meta.locale };
  tabStore.set((tabs) => {
    const index = tabs.findIndex((t) => t.name === tab.name);
    if (index === -1) return [...tabs, tab];
    if (tabs[index]?.fullPath === tab.fullPath) return tabs;
    return tabs.map((t, i) => (i === index ? tab : t));
  });
}

export type TabAction = 'reload' | 'close' | 'closeLeft' | 'closeRight' | 'closeOthers' | 'closeAll';

/**
 * Applies a close action to the tab at `index` (the first tab always stays) and answers
 * where to go when the active tab was closed (or null to stay).
 */
export function closeTabs(action: Exclude<TabAction, 'reload'>, index: number, activeName: string | null): string | null {
  const tabs = tabStore.get();
  const target = tabs[index];
  if (!target) return null;
  let next: TabItem[];
  switch (action) {
    case 'close':
      next = index === 0 ? tabs : tabs.filter((_, i) => i !== index);
      break;
    case 'closeLeft':
      next = tabs.filter((_, i) => i === 0 || i >= index);
      break;
    case 'closeRight':
      next = tabs.slice(0, index + 1);
      break;
    case 'closeOthers':
      next = tabs.filter((_, i) => i === 0 || i === index);
      break;
    case 'closeAll':
      next = tabs.slice(0, 1);
      break;
  }
  tabStore.set(next);
  if (activeName && next.some((t) => t.name === activeName)) return null;
  // The active tab went: show the acted-on tab if it stayed, else the nearest one to its left.
  if (next.includes(target)) return target.fullPath;
  const fallback = next[Math.min(index, next.length) - 1] ?? next[0];
  return fallback?.fullPath ?? null;
}
