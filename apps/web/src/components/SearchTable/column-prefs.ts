import type { Density } from './types.ts';

/** What the column settings remember for one user and table (localStorage). */
export interface TablePrefs {
  /** Column keys in display order. */
  order: string[];
  /** Keys of hidden columns. */
  hidden: string[];
  density: Density;
}

const DENSITIES: readonly Density[] = ['mini', 'small', 'medium', 'large'];

export function defaultPrefs(columns: ReadonlyArray<{ key: string; defaultHidden?: boolean }>, density: Density = 'medium'): TablePrefs {
  return { order: columns.map((c) => c.key), hidden: columns.filter((c) => c.defaultHidden).map((c) => c.key), density };
}

/**
 * Saved prefs reconciled with today's columns: unknown keys dropped, columns added since
 * appear at their default place (after the column that precedes them by default).
 */
export function reconcile(
  columns: ReadonlyArray<{ key: string; defaultHidden?: boolean }>,
  saved: unknown,
  fallback: TablePrefs,
): TablePrefs {
  if (typeof saved !== 'object' || saved === null) return fallback;
  const raw = saved as Partial<Record<keyof TablePrefs, unknown>>;
  const keys = columns.map((c) => c.key);
  const known = new Set(keys);
  const order = Array.isArray(raw.order) ? raw.order.filter((k): k is string => typeof k === 'string' && known.has(k)) : [];
  const seen = new Set(order);
  keys.forEach((key, index) => {
    if (seen.has(key)) return;
    const before = keys
      .slice(0, index)
      .reverse()
      .find((k) => seen.has(k));
    order.splice(before === undefined ? 0 : order.indexOf(before) + 1, 0, key);
    seen.add(key);
  });
  const savedHidden = Array.isArray(raw.hidden) ? raw.hidden.filter((k): k is string => typeof k === 'string' && known.has(k)) : null;
  const hidden = savedHidden ?? fallback.hidden;
  const density = DENSITIES.includes(raw.density as Density) ? (raw.density as Density) : fallback.density;
  return { order, hidden, density };
}

/** Moves `key` one place up (-1) or down (+1). */
export function move(order: readonly string[], key: string, delta: -1 | 1): string[] {
  const next = [...order];
  const from = next.indexOf(key);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= next.length) return next;
  [next[from], next[to]] = [next[to] as string, next[from] as string];
  return next;
}

export function readPrefs(storageKey: string | null): unknown {
  if (!storageKey) return null;
  try {
    const text = window.localStorage.getItem(storageKey);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

export function writePrefs(storageKey: string | null, prefs: TablePrefs | null): void {
  if (!storageKey) return;
  try {
    if (prefs === null) window.localStorage.removeItem(storageKey);
    else window.localStorage.setItem(storageKey, JSON.stringify(prefs));
  } catch {
    // storage unavailable: the settings last for this page only
  }
}
