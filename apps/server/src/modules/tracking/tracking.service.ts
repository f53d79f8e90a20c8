import type { EventBody, PageViewBody, VisitOverview } from '@clearplay/contract';
import { createHash } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { deleteInBatches } from '../../lib/batches.ts';
import { BUSINESS_TIME_ZONE, businessDateLabel, businessDayOf } from '../../lib/business-time.ts';
import { DAY_MS, nowMs, toIso } from '../../lib/time.ts';
import * as repo from './tracking.repository.ts';

/** Event data is kept as JSON text, cut at this many characters. */
export const EVENT_DATA_MAX = 4096;
/** Counter names (paths, referrers) are cut at this many characters (0007's columns). */
export const COUNTER_NAME_MAX = 255;
/** The overview's window: today and the 29 days before it. */
export const OVERVIEW_DAYS = 30;
export const TOP_LIMIT = 10;

export interface Visitor {
  userId: number | null;
  ip: string;
  userAgent: string;
  /** The Host the request came to: a referrer on it counts as the in-app path it names. */
  host?: string;
}

/** Who a visit counts as for unique visitors: the user, or a hash of ip + user agent. */
export function visitorKey(visitor: Visitor, userAgent: string): string {
  if (visitor.userId !== null) return `u:${visitor.userId}`;
  return `a:${createHash('sha256').update(`${visitor.ip}\n${userAgent}`).digest('hex').slice(0, 40)}`;
}

/** `/order/list?page=2#x` → `/order/list`, cut to the counter's length. */
export const pagePath = (path: string): string => (path.split(/[?#]/)[0] || '/').slice(0, COUNTER_NAME_MAX);

/**
 * What a referrer counts as: another site's origin (`https://www.google.com`), the path of an
 * in-app one (the SPA sends the previous route's path; a full URL on our own host counts as
 * its path), or null for none or junk.
 */
export function referrerName(referrer: string, host: string | undefined): string | null {
  const text = referrer.trim();
  if (text === '') return null;
  if (text.startsWith('/')) return pagePath(text);
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (host !== undefined && url.host === host) return pagePath(url.pathname);
    return url.origin.slice(0, COUNTER_NAME_MAX);
  } catch {
    return null;
  }
}

/**
 * The raw page-view row and the day's counters, on `trx` (a transaction the caller holds: the
 * route's own, or the demo seeder's). Decision 0044.
 */
export async function writePageView(trx: Db, body: PageViewBody, visitor: Visitor, now: number): Promise<void> {
  const userAgent = (body.userAgent ?? visitor.userAgent).slice(0, 512);
  const referrer = body.referrer ?? '';
  const day = businessDayOf(now);
  await repo.insertPageView(trx, { userId: visitor.userId, path: body.path, userAgent, referrer, ip: visitor.ip, createdAt: now });
  const first = await repo.addVisitor(trx, day, visitorKey(visitor, userAgent));
  await repo.bumpVisitDay(trx, day, 1, first ? 1 : 0);
  await repo.bumpNamed(trx, 'pageViewDaily', day, pagePath(body.path));
  const from = referrerName(referrer, visitor.host);
  if (from !== null) await repo.bumpNamed(trx, 'referrerDaily', day, from);
}

/** The raw event row and its day counter, on `trx`. */
export async function writeEvent(trx: Db, body: EventBody, visitor: Visitor, now: number): Promise<void> {
  const data = body.data === undefined ? '' : JSON.stringify(body.data).slice(0, EVENT_DATA_MAX);
  await repo.insertEvent(trx, { userId: visitor.userId, event: body.event, data, clientTime: body.timestamp ?? now, createdAt: now });
  await repo.bumpNamed(trx, 'eventDaily', businessDayOf(now), body.event);
}

/** A page view: its raw row and counters in one transaction. */
export async function recordPageView(db: Db, body: PageViewBody, visitor: Visitor, now = nowMs()): Promise<void> {
  await db.transaction().execute((trx) => writePageView(trx, body, visitor, now));
}

/** A client event: its raw row and counter in one transaction. */
export async function recordEvent(db: Db, body: EventBody, visitor: Visitor, now = nowMs()): Promise<void> {
  await db.transaction().execute((trx) => writeEvent(trx, body, visitor, now));
}

/** Rows read per step while looking for distinct paths, and at most this many steps. */
const RECENT_BATCH = 200;
const RECENT_MAX_BATCHES = 10;

/**
 * The user's recently visited pages: the latest visit of each distinct path (without its query
 * string), newest first. Walks the user's views newest first through page_views_user_created_idx
 * and stops once `limit` paths are found (or after 2,000 views).
 */
export async function recentlyVisited(db: Db, userId: number, limit: number): Promise<{ path: string; visitedAt: string }[]> {
  const found = new Map<string, number>();
  let cursor: { createdAt: number; id: number } | null = null;
  for (let step = 0; step < RECENT_MAX_BATCHES && found.size < limit; step += 1) {
    const rows = await repo.userViewsBefore(db, userId, cursor, RECENT_BATCH);
    for (const row of rows) {
      const path = pagePath(row.path);
      if (!found.has(path) && found.size < limit) found.set(path, Number(row.createdAt));
    }
    if (rows.length < RECENT_BATCH) break;
    const last = rows[rows.length - 1]!;
    cursor = { createdAt: Number(last.createdAt), id: Number(last.id) };
  }
  return [...found].map(([path, at]) => ({ path, visitedAt: toIso(at) }));
}

/** The first day of the overview's window (Shanghai day start) at `now`. */
export const overviewFrom = (now: number): number => businessDayOf(now) - (OVERVIEW_DAYS - 1) * DAY_MS;

/** GET /admin/visit-stats/overview: read from the day counters only. */
export async function visitOverview(db: Db, now = nowMs()): Promise<VisitOverview> {
  const from = overviewFrom(now);
  const [rows, topPages, topReferrers, topEvents] = await Promise.all([
    repo.visitDaysQuery(db, from).execute(),
    repo.topNamed(db, 'pageViewDaily', from, TOP_LIMIT),
    repo.topNamed(db, 'referrerDaily', from, TOP_LIMIT),
    repo.topNamed(db, 'eventDaily', from, TOP_LIMIT),
  ]);
  const byDay = new Map(rows.map((r) => [Number(r.day), { pv: Number(r.pv), uv: Number(r.uv) }]));
  const days = Array.from({ length: OVERVIEW_DAYS }, (_, i) => {
    const day = from + i * DAY_MS;
    return { date: businessDateLabel(day), ...(byDay.get(day) ?? { pv: 0, uv: 0 }) };
  });
  return { timeZone: BUSINESS_TIME_ZONE, today: days[days.length - 1]!, days, topPages, topReferrers, topEvents };
}

// ── retention (decision 0035): the retention job calls these with its cut-off (decision 0110) ──

/**
 * Removes, batch by batch, the page views recorded before `before`. The day counters they were
 * counted in stay (decision 0044), so the visit statistics keep every day. Answers how many went.
 */
export const removeOldPageViews = (db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> =>
  deleteInBatches(() => repo.deleteVisitRowsBefore(db, 'pageViews', before, batch), signal);

/** Removes, batch by batch, the client events recorded before `before`; their day counters stay. Answers how many went. */
export const removeOldClientEvents = (db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> =>
  deleteInBatches(() => repo.deleteVisitRowsBefore(db, 'clientEvents', before, batch), signal);
