import type { MonitorData, MonitorImport } from '@clearplay/contract';
import type { Db } from '../../db/index.ts';
import { BUSINESS_TIME_ZONE, businessDateLabel, businessDayOf } from '../../lib/business-time.ts';
import { DAY_MS, MINUTE_MS, nowMs, toIso } from '../../lib/time.ts';
import type { Locale } from '../../lib/messages.ts';
import { listLogs, logDetails } from '../logs/logs.service.ts';
import { readImportLogDetails, type ImportLogDetails } from '../orders/orders.service.ts';
import * as repo from './monitor.repository.ts';

/** "Online now": seen within this many minutes. */
export const ONLINE_WINDOW_MINUTES = 15;
/** How many of the latest order imports the monitor lists. */
export const LATEST_IMPORTS = 5;

/**
 * An import's outcome, read from its operation-log row. The call answers 200 for an
 * all-or-nothing import refused for a rejected row, so the row's status says "success" while
 * nothing was written; the counts the import recorded on the row (`details`) tell what
 * happened. A row written before the counts were recorded is read from its text
 * (`order import "name": N rows, I imported, R rejected`).
 */
export function importOutcome(status: 'success' | 'failed', content: string, details: ImportLogDetails | null): MonitorImport['outcome'] {
  if (status === 'failed') return 'failed';
  let written: number;
  let rejected: number;
  if (details !== null) {
    ({ written, rejected } = details);
  } else {
    const counts = /: (\d+) rows, (\d+) imported, (\d+) rejected/.exec(content);
    if (counts === null) return 'succeeded';
    written = Number(counts[2]);
    rejected = Number(counts[3]);
  }
  if (written === 0) return 'failed';
  return rejected > 0 ? 'partial' : 'succeeded';
}

/** GET /admin/monitor: today's (Shanghai) orders per hour, staff online now, the latest imports (their lines in the reader's language). */
export async function monitorData(db: Db, now = nowMs(), locale: Locale = 'en-US'): Promise<MonitorData> {
  const today = businessDayOf(now);
  const [perHour, staff, imports] = await Promise.all([
    repo.ordersPerHour(db, today, today + DAY_MS),
    repo.staffSeenSince(db, now - ONLINE_WINDOW_MINUTES * MINUTE_MS),
    listLogs(db, { module: 'order', action: 'import', page: 1, pageSize: LATEST_IMPORTS }, locale),
  ]);
  const details = await logDetails(
    db,
    imports.list.map((l) => l.id),
  );
  const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0, amount: 0 }));
  for (const h of perHour) if (h.hour >= 0 && h.hour < 24) hours[h.hour] = h;
  return {
    timeZone: BUSINESS_TIME_ZONE,
    date: businessDateLabel(today),
    generatedAt: toIso(now),
    hours,
    todayCount: hours.reduce((sum, h) => sum + h.count, 0),
    todayAmount: hours.reduce((sum, h) => sum + h.amount, 0),
    onlineWindowMinutes: ONLINE_WINDOW_MINUTES,
    onlineStaff: staff.map((s) => ({ ...s, lastSeenAt: toIso(s.lastSeenAt) })),
    latestImports: imports.list.map((l) => ({
      id: l.id,
      content: l.content,
      operator: l.operator,
      status: l.status,
      outcome: importOutcome(l.status, l.content, readImportLogDetails(details.get(l.id) ?? null)),
      createTime: l.createTime,
      durationMs: l.durationMs,
    })),
  };
}
