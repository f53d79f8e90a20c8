import { sql, type ExpressionBuilder, type SqlBool, type Expression } from 'kysely';
import { dialectOf } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import type { Database, NewOperationLog } from '../../db/schema.ts';

/** Filters of the log list, already normalised (trimmed, empty dropped, times in epoch ms). */
export interface LogFilter {
  module?: string;
  action?: string;
  operator?: string;
  /** 1 success, 0 failed. */
  status?: number;
  /** Inclusive bounds on created_at. */
  start?: number;
  end?: number;
}

type LogsEb = ExpressionBuilder<Database, 'operationLogs'>;

function where(eb: LogsEb, f: LogFilter, from = f.start, to = f.end): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (f.module !== undefined) parts.push(eb('module', '=', f.module));
  if (f.action !== undefined) parts.push(eb('action', '=', f.action));
  if (f.operator !== undefined) parts.push(eb('operator', '=', f.operator));
  if (f.status !== undefined) parts.push(eb('status', '=', f.status));
  if (from !== undefined) parts.push(eb('createdAt', '>=', from));
  if (to !== undefined) parts.push(eb('createdAt', '<=', to));
  return eb.and(parts);
}

/** One page, newest first; every filter has an index ending in (created_at, id) (migration 0003). */
export const listPage = (db: Db, f: LogFilter, offset: number, limit: number) =>
  db
    .selectFrom('operationLogs')
    .select([
      'id',
      'module',
      'action',
      'content',
      'operator',
      'operatorId',
      'status',
      'ip',
      'createdAt',
      'method',
      'path',
      'durationMs',
      'errorMsg',
      'event',
      'params',
    ])
    .where((eb) => where(eb, f))
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset);

/** Exact count over the log rows, optionally within [from, to]. */
export const countRows = (db: Db, f: LogFilter, from?: number, to?: number) =>
  db
    .selectFrom('operationLogs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => where(eb, f, from, to));

/** Sum of the daily counters for days in [fromDay, toDayExclusive). */
export const sumDaily = (db: Db, f: LogFilter, fromDay: number | undefined, toDayExclusive: number | undefined) =>
  db
    .selectFrom('operationLogDaily')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('n'), sql<number>`0`).as('n'))
    .where((eb) => {
      const parts: Expression<SqlBool>[] = [];
      if (f.module !== undefined) parts.push(eb('module', '=', f.module));
      if (f.action !== undefined) parts.push(eb('action', '=', f.action));
      if (f.status !== undefined) parts.push(eb('status', '=', f.status));
      if (fromDay !== undefined) parts.push(eb('day', '>=', fromDay));
      if (toDayExclusive !== undefined) parts.push(eb('day', '<', toDayExclusive));
      return eb.and(parts);
    });

export const findById = (db: Db, id: number) => db.selectFrom('operationLogs').selectAll().where('id', '=', id).executeTakeFirst();

/** The `details` of the given rows (by primary key). */
export const detailsOf = (db: Db, ids: readonly number[]) =>
  db.selectFrom('operationLogs').select(['id', 'details']).where('id', 'in', ids).execute();

export const insertLog = (db: Db, row: NewOperationLog) => db.insertInto('operationLogs').values(row).execute();

/** Adds one to the (module, action, status, day) counter, creating it at 1. */
export async function bumpDaily(db: Db, key: { module: string; action: string; status: number; day: number }): Promise<void> {
  const insert = db.insertInto('operationLogDaily').values({ ...key, n: 1 });
  if (dialectOf(db) === 'mysql') {
    await insert.onDuplicateKeyUpdate({ n: sql<number>`n + 1` }).execute();
    return;
  }
  await insert
    .onConflict((oc) =>
      oc.columns(['module', 'action', 'status', 'day']).doUpdateSet({ n: sql<number>`${sql.ref('operationLogDaily.n')} + 1` }),
    )
    .execute();
}

// ── retention (decision 0035; logs.service removeOldOperationLogs, decision 0110) ──

/** The oldest `batch` rows written before `before` (operation_logs_created_idx), with what their daily counters are keyed by. */
export const oldestLogsBefore = (db: Db, before: number, batch: number) =>
  db
    .selectFrom('operationLogs')
    .select(['id', 'module', 'action', 'status', 'createdAt'])
    .where('createdAt', '<', before)
    .orderBy('createdAt')
    .orderBy('id')
    .limit(batch)
    .execute();

export const deleteLogs = (db: Db, ids: readonly number[]) => db.deleteFrom('operationLogs').where('id', 'in', ids).execute();

/** Takes `n` off a daily counter, and removes the counter when nothing is left of it. */
export async function dropFromDaily(
  db: Db,
  key: { module: string; action: string; status: number; day: number },
  n: number,
): Promise<void> {
  await db
    .updateTable('operationLogDaily')
    .set((eb) => ({ n: eb('n', '-', n) }))
    .where('module', '=', key.module)
    .where('action', '=', key.action)
    .where('status', '=', key.status)
    .where('day', '=', key.day)
    .execute();
  await db
    .deleteFrom('operationLogDaily')
    .where('module', '=', key.module)
    .where('action', '=', key.action)
    .where('status', '=', key.status)
    .where('day', '=', key.day)
    .where('n', '<=', 0)
    .execute();
}
