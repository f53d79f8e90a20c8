import {
  ANALYSIS_MAX_DAYS,
  BUSINESS_TIME_ZONE,
  QUICK_OPERATIONS,
  RENEWAL_AHEAD_DAYS,
  RENEWAL_PAST_DAYS,
  WORKPLACE_SERIES_DAYS,
  type AnalysisBucket,
  type OrderAnalysis,
  type OrderAnalysisQuery,
  type OrderResult,
  type RenewalItem,
  type WorkplaceData,
} from '@clearplay/contract';
import type { Db } from '../../db/index.ts';
import type { Operator } from '../../http/route-context.ts';
import {
  BUSINESS_UTC_OFFSET_MS,
  businessDateLabel,
  businessDayOf,
  businessMonthOf,
  businessWeekOf,
  hourOf,
} from '../../lib/business-time.ts';
import { FieldAppError } from '../../lib/errors.ts';
import { DAY_MS, HOUR_MS, nowMs, toIso } from '../../lib/time.ts';
import { latestAnnouncements } from '../announcements/announcements.service.ts';
import { listOrders } from '../orders/orders.service.ts';
import { recentlyVisited } from '../tracking/tracking.service.ts';
import * as repo from './workplace.repository.ts';

/**
 * The workplace (docs/product.md "The workplace"; decision 0041): every figure from the order
 * counters kept with each order write (order_daily, order_hourly), days and months in the
 * business's time zone (Asia/Shanghai), plus a few index-ordered reads (the newest orders,
 * the renewals, the announcements, the caller's visits).
 */

const RESULTS: readonly OrderResult[] = [0, 1, 2, 3];
const SUSPICIOUS: OrderResult = 3;
const LIST_ROWS = 5;
const LATEST_ROWS = 8;

/** (current − previous) / previous, 4 decimals; null when there is nothing to compare with. */
const change = (current: number, previous: number): number | null =>
  previous === 0 ? null : Math.round(((current - previous) / previous) * 10_000) / 10_000;

export async function workplace(db: Db, op: Operator, now = nowMs()): Promise<WorkplaceData> {
  const today = businessDayOf(now);
  const monthStart = businessMonthOf(now);
  const seriesStart = today - (WORKPLACE_SERIES_DAYS - 1) * DAY_MS;
  const [balance, pending, renewals, current, previous, latest, results, daily, announcements, visits] = await Promise.all([
    repo.sumBalances(db),
    listOrders(db, { page: 1, pageSize: LIST_ROWS, result: SUSPICIOUS }, op),
    repo.renewals(db, now - RENEWAL_PAST_DAYS * DAY_MS, now + RENEWAL_AHEAD_DAYS * DAY_MS, LIST_ROWS),
    repo.hourlyTotal(db, monthStart, businessMonthOf(now, 1)),
    repo.hourlyTotal(db, businessMonthOf(now, -1), monthStart),
    listOrders(db, { page: 1, pageSize: LATEST_ROWS }, op),
    repo.resultTotals(db),
    repo.dailyTotals(db, seriesStart, today + DAY_MS),
    latestAnnouncements(db, LIST_ROWS),
    recentlyVisited(db, op.id, LATEST_ROWS),
  ]);
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const byResult = new Map(results.map((r) => [r.result, r]));
  const total = results.reduce((t, r) => ({ count: t.count + r.count, amount: t.amount + r.amount }), { count: 0, amount: 0 });
  return {
    balance,
    pending: { count: pending.total, list: pending.list },
    renewals: {
      count: renewals.count,
      list: renewals.rows.map((r): RenewalItem => ({
        id: Number(r.id),
        username: r.username,
        nickname: r.nickname,
        serviceEndDate: toIso(Number(r.serviceEndAt)),
        state: Number(r.serviceEndAt) > now ? 'expiring' : 'expired',
        balance: Number(r.balance),
      })),
    },
    month: {
      start: toIso(monthStart),
      current,
      previous,
      countChange: change(current.count, previous.count),
      amountChange: change(current.amount, previous.amount),
    },
    latestOrders: latest.list,
    results: RESULTS.map((result) => ({ result, count: byResult.get(result)?.count ?? 0, amount: byResult.get(result)?.amount ?? 0 })),
    total,
    daily: Array.from({ length: WORKPLACE_SERIES_DAYS }, (_, i) => {
      const day = seriesStart + i * DAY_MS;
      return { date: businessDateLabel(day), count: byDay.get(day)?.count ?? 0, amount: byDay.get(day)?.amount ?? 0 };
    }),
    announcements,
    recentlyVisited: visits,
    quickOperations: QUICK_OPERATIONS.filter((q) => op.permissions.includes(q.permission)).map((q) => ({ key: q.key, path: q.path })),
    timeZone: BUSINESS_TIME_ZONE,
    generatedAt: toIso(now),
  };
}

/** Orders per UTC hour of today's business day (the monitor's "orders per hour"), 24 entries. */
export async function todayByHour(db: Db, now = nowMs()): Promise<{ hour: string; count: number; amount: number }[]> {
  const start = businessDayOf(now);
  const rows = new Map((await repo.hourlyTotals(db, start, start + DAY_MS)).map((r) => [r.hour, r]));
  return Array.from({ length: 24 }, (_, i) => {
    const hour = start + i * HOUR_MS;
    return { hour: toIso(hour), count: rows.get(hour)?.count ?? 0, amount: rows.get(hour)?.amount ?? 0 };
  });
}

/** For tests: the current UTC hour's start. */
export { hourOf };

// ── order analysis ──

/** A YYYY-MM-DD business day as the instant it starts, or a 400. */
function parseDay(value: string, field: string): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    throw new FieldAppError(400, field, 'analysis.date', { value });
  return ms - BUSINESS_UTC_OFFSET_MS;
}

const bucketOf = (bucket: AnalysisBucket, day: number): number =>
  bucket === 'day' ? day : bucket === 'week' ? businessWeekOf(day) : businessMonthOf(day);

const nextBucket = (bucket: AnalysisBucket, start: number): number =>
  bucket === 'day' ? start + DAY_MS : bucket === 'week' ? start + 7 * DAY_MS : businessMonthOf(start, 1);

/**
 * Orders by game, by result and by shop over business days [from, to], in day, week or month
 * buckets, all from the per-day counters (order_game_daily, order_user_daily).
 */
export async function orderAnalysis(db: Db, query: OrderAnalysisQuery): Promise<OrderAnalysis> {
  const bucket = query.bucket ?? 'day';
  const fromDay = parseDay(query.from, 'from');
  const toDay = parseDay(query.to, 'to');
  if (toDay < fromDay) throw new FieldAppError(400, 'to', 'analysis.range', { from: query.from, to: query.to });
  const days = Math.round((toDay - fromDay) / DAY_MS) + 1;
  if (days > ANALYSIS_MAX_DAYS) throw new FieldAppError(400, 'to', 'analysis.rangeTooLong', { days, max: ANALYSIS_MAX_DAYS });
  const end = toDay + DAY_MS;
  const [cells, shops] = await Promise.all([repo.gameResultDays(db, fromDay, end), repo.topShops(db, fromDay, end, 20)]);

  const starts: number[] = [];
  for (let b = bucketOf(bucket, fromDay); b < end; b = nextBucket(bucket, b)) starts.push(b);
  const index = new Map(starts.map((s, i) => [s, i]));
  const zeros = () => starts.map(() => 0);
  const byResult = new Map(RESULTS.map((r) => [r, { result: r, count: zeros(), amount: zeros() }]));
  const byGame = new Map<string, { gameName: string; total: { count: number; amount: number }; count: number[] }>();
  const total = { count: 0, amount: 0 };
  for (const c of cells) {
    const i = index.get(bucketOf(bucket, c.day));
    if (i === undefined) continue;
    const r = byResult.get(c.result as OrderResult);
    if (r) {
      r.count[i]! += c.count;
      r.amount[i]! += c.amount;
    }
    const g = byGame.get(c.gameName) ?? { gameName: c.gameName, total: { count: 0, amount: 0 }, count: zeros() };
    g.count[i]! += c.count;
    g.total.count += c.count;
    g.total.amount += c.amount;
    byGame.set(c.gameName, g);
    total.count += c.count;
    total.amount += c.amount;
  }
  return {
    from: query.from,
    to: query.to,
    bucket,
    buckets: starts.map(businessDateLabel),
    total,
    byResult: [...byResult.values()],
    byGame: [...byGame.values()].sort((a, b) => b.total.count - a.total.count || a.gameName.localeCompare(b.gameName)),
    byShop: shops.map((s) => ({
      userId: s.userId,
      name: s.nickname || s.username || `#${s.userId}`,
      total: { count: s.count, amount: s.amount },
    })),
  };
}
