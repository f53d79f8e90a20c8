import type { LogDetail, LogItem, LogListQuery } from '@clearplay/contract';
import type { Compilable } from 'kysely';
import { textFilter } from '../../db/text-search.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Db } from '../../db/index.ts';
import type { NewOperationLog, OperationLogRow } from '../../db/schema.ts';
import { deleteInBatches } from '../../lib/batches.ts';
import { AppError } from '../../lib/errors.ts';
import type { Locale } from '../../lib/messages.ts';
import { contentIn, viewAsPrefix } from '../../lib/view-as-note.ts';
import { tellLog, tellLogError } from '../../lib/log-text.ts';
import type { LabelOf } from '../../lib/told.ts';
import { dictLabels } from '../dicts/dicts.service.ts';
import { DAY_MS, toIso } from '../../lib/time.ts';
import * as repo from './logs.repository.ts';

/**
 * Writes one log row and its daily counter together, so the counters always match the rows. A
 * write transaction: on SQLite it waits, as long as one does, for an import holding the write
 * lock on its own thread (decision 0093), rather than only the busy timeout; nobody waits for it.
 */
export async function recordOperation(db: Db, row: NewOperationLog): Promise<void> {
  await writeTransaction(db, async (trx) => {
    await repo.insertLog(trx, row);
    await repo.bumpDaily(trx, {
      module: row.module,
      action: row.action,
      status: row.status,
      day: Math.floor(row.createdAt / DAY_MS) * DAY_MS,
    });
  });
}

/**
 * Removes, batch by batch, the rows written before `before` (the retention job, decisions 0035
 * and 0110); each batch is one transaction that also takes exactly those rows off their daily
 * counters, so the counters keep matching the rows. Answers how many went.
 */
export async function removeOldOperationLogs(db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> {
  return deleteInBatches(
    () =>
      writeTransaction(db, async (trx) => {
        const rows = await repo.oldestLogsBefore(trx, before, batch);
        if (rows.length === 0) return 0;
        await repo.deleteLogs(
          trx,
          rows.map((r) => Number(r.id)),
        );
        const counts = new Map<string, { module: string; action: string; status: number; day: number; n: number }>();
        for (const row of rows) {
          const day = Math.floor(Number(row.createdAt) / DAY_MS) * DAY_MS;
          const id = JSON.stringify([row.module, row.action, row.status, day]);
          const entry = counts.get(id) ?? { module: row.module, action: row.action, status: row.status, day, n: 0 };
          entry.n += 1;
          counts.set(id, entry);
        }
        for (const c of counts.values()) await repo.dropFromDaily(trx, c, c.n);
        return rows.length;
      }),
    signal,
  );
}

type ListRow = Pick<
  OperationLogRow,
  | 'id'
  | 'module'
  | 'action'
  | 'content'
  | 'operator'
  | 'operatorId'
  | 'status'
  | 'ip'
  | 'createdAt'
  | 'method'
  | 'path'
  | 'durationMs'
  | 'errorMsg'
  | 'event'
  | 'params'
>;

/**
 * A row's line in the reader's language (decision 0097): told from its event and parameters,
 * with the view-as note the content starts with; a row written as free text (before migration
 * 0018, or an event this build does not know) is shown as it was written.
 */
function lineIn(locale: Locale, row: ListRow, labelOf: LabelOf): string {
  const told = row.event === null ? undefined : tellLog(locale, row.event, row.params, labelOf);
  if (told === undefined) return contentIn(locale, row.content);
  return contentIn(locale, viewAsPrefix(row.content)) + told;
}

const toLogItem = (row: ListRow, locale: Locale, labelOf: LabelOf): LogItem => ({
  id: Number(row.id),
  module: row.module,
  action: row.action,
  content: lineIn(locale, row, labelOf),
  operator: row.operator,
  operatorId: row.operatorId,
  status: row.status === 1 ? 'success' : 'failed',
  ip: row.ip,
  createTime: toIso(Number(row.createdAt)),
  method: row.method,
  path: row.path,
  durationMs: Number(row.durationMs),
  errorMsg: row.errorMsg === '' ? '' : (tellLogError(locale, row.params) ?? row.errorMsg),
});

export function toFilter(query: LogListQuery): repo.LogFilter {
  return {
    module: textFilter(query.module),
    action: textFilter(query.action),
    operator: textFilter(query.operator),
    status: query.status === undefined ? undefined : query.status === 'success' ? 1 : 0,
    start: query.startTime === undefined ? undefined : Date.parse(query.startTime),
    end: query.endTime === undefined ? undefined : Date.parse(query.endTime),
  };
}

const num = (row: { n: number | string | null } | undefined) => Number(row?.n ?? 0);

/**
 * The queries whose `n` values add up to the list's total, without counting a million rows.
 * The operator filter is answered by its index. Otherwise every whole UTC day inside the range
 * comes from the daily counters, and only the partial days at the edges are counted row by row
 * (each through a (…, created_at) index).
 */
/** A query answering one row `{n}`. */
export type CountQuery = Compilable<{ n: number | string | null }> & {
  executeTakeFirst(): Promise<{ n: number | string | null } | undefined>;
};

export function countQueries(db: Db, f: repo.LogFilter): CountQuery[] {
  if (f.operator !== undefined) return [repo.countRows(db, f)];
  const firstWholeDay = f.start === undefined ? undefined : Math.ceil(f.start / DAY_MS) * DAY_MS;
  const endOfWholeDays = f.end === undefined ? undefined : Math.floor((f.end + 1) / DAY_MS) * DAY_MS;
  if (firstWholeDay !== undefined && endOfWholeDays !== undefined && firstWholeDay >= endOfWholeDays) return [repo.countRows(db, f)];
  const queries: CountQuery[] = [repo.sumDaily(db, f, firstWholeDay, endOfWholeDays)];
  if (firstWholeDay !== undefined && firstWholeDay !== f.start) queries.push(repo.countRows(db, f, f.start, firstWholeDay - 1));
  if (endOfWholeDays !== undefined && f.end !== undefined && endOfWholeDays !== f.end + 1)
    queries.push(repo.countRows(db, f, endOfWholeDays, f.end));
  return queries;
}

export async function countLogs(db: Db, f: repo.LogFilter): Promise<number> {
  const rows = await Promise.all(countQueries(db, f).map((q) => q.executeTakeFirst()));
  return rows.reduce((sum, row) => sum + num(row), 0);
}

export async function listLogs(db: Db, query: LogListQuery, locale: Locale = 'en-US'): Promise<{ list: LogItem[]; total: number }> {
  const f = toFilter(query);
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 20;
  const [rows, total, labelOf] = await Promise.all([
    repo.listPage(db, f, (page - 1) * pageSize, pageSize).execute(),
    countLogs(db, f),
    dictLabels(db),
  ]);
  return { list: rows.map((row) => toLogItem(row, locale, labelOf)), total };
}

/** The `details` JSON of each given row that has one (what the call recorded as data, e.g. an import's counts). */
export async function logDetails(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await repo.detailsOf(db, ids);
  return new Map(rows.filter((r) => r.details !== null).map((r) => [Number(r.id), r.details as string]));
}

export async function getLog(db: Db, id: number, locale: Locale = 'en-US'): Promise<LogDetail> {
  const row = await repo.findById(db, id);
  if (row === undefined) throw new AppError(404, 'log.notFound', { id });
  return { ...toLogItem(row, locale, await dictLabels(db)), payload: row.payload, userAgent: row.userAgent };
}
