import { sql, type Insertable } from 'kysely';
import { dialectOf } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import type { ClientEventsTable, PageViewsTable } from '../../db/schema.ts';

export const insertPageView = (db: Db, row: Insertable<PageViewsTable>) => db.insertInto('pageViews').values(row).execute();

export const insertEvent = (db: Db, row: Insertable<ClientEventsTable>) => db.insertInto('clientEvents').values(row).execute();

/** The counter tables keyed by (day, name); `column` is the name's column. */
const NAMED = {
  pageViewDaily: 'path',
  referrerDaily: 'referrer',
  eventDaily: 'event',
} as const;
export type NamedCounter = keyof typeof NAMED;

/** Adds `n` to the (day, name) counter of `table`, creating it at `n`. */
export async function bumpNamed(db: Db, table: NamedCounter, day: number, name: string, n = 1): Promise<void> {
  const column = NAMED[table];
  // The generic table defeats Kysely's per-table typing; the three tables share this shape.
  const insert = db.insertInto(table).values({ day, [column]: name, n } as never);
  if (dialectOf(db) === 'mysql') {
    await insert.onDuplicateKeyUpdate({ n: sql`n + ${n}` } as never).execute();
    return;
  }
  await insert
    .onConflict((oc) => oc.columns(['day', column] as never).doUpdateSet({ n: sql`${sql.ref(`${table}.n`)} + ${n}` } as never))
    .execute();
}

/** Records the visitor for the day; true when this is their first visit of the day. */
export async function addVisitor(db: Db, day: number, visitor: string): Promise<boolean> {
  const insert = db.insertInto('visitorDaily').values({ day, visitor });
  const result =
    dialectOf(db) === 'mysql'
      ? await insert.ignore().executeTakeFirst()
      : await insert.onConflict((oc) => oc.columns(['day', 'visitor']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Adds page views and unique visitors to the day's totals. */
export async function bumpVisitDay(db: Db, day: number, pv: number, uv: number): Promise<void> {
  const insert = db.insertInto('visitDaily').values({ day, pv, uv });
  if (dialectOf(db) === 'mysql') {
    await insert.onDuplicateKeyUpdate({ pv: sql<number>`pv + ${pv}`, uv: sql<number>`uv + ${uv}` }).execute();
    return;
  }
  await insert
    .onConflict((oc) =>
      oc
        .column('day')
        .doUpdateSet({ pv: sql<number>`${sql.ref('visitDaily.pv')} + ${pv}`, uv: sql<number>`${sql.ref('visitDaily.uv')} + ${uv}` }),
    )
    .execute();
}

/** One page of a user's page views, newest first, before the (createdAt, id) cursor (page_views_user_created_idx). */
export const userViewsBefore = (db: Db, userId: number, before: { createdAt: number; id: number } | null, limit: number) =>
  db
    .selectFrom('pageViews')
    .select(['id', 'path', 'createdAt'])
    .where('userId', '=', userId)
    .$if(before !== null, (q) =>
      q.where((eb) =>
        eb.or([eb('createdAt', '<', before!.createdAt), eb.and([eb('createdAt', '=', before!.createdAt), eb('id', '<', before!.id)])]),
      ),
    )
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

export const visitDaysQuery = (db: Db, fromDay: number) =>
  db.selectFrom('visitDaily').select(['day', 'pv', 'uv']).where('day', '>=', fromDay).orderBy('day');

/** The top `limit` names of a counter table over the days from `fromDay` (a range of its primary key). */
export const topNamedQuery = (table: NamedCounter, fromDay: number, limit: number) => {
  const column = NAMED[table];
  return sql<{ name: string; count: number | string }>`
    select ${sql.ref(column)} as name, sum(n) as count from ${sql.table(snake(table))}
    where day >= ${fromDay}
    group by ${sql.ref(column)}
    order by count desc, name
    limit ${limit}`;
};

export async function topNamed(db: Db, table: NamedCounter, fromDay: number, limit: number): Promise<{ name: string; count: number }[]> {
  const rows = await topNamedQuery(table, fromDay, limit).execute(db);
  return rows.rows.map((r) => ({ name: r.name, count: Number(r.count) }));
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Removes up to `batch` raw visit rows written before `before` (page_views_created_idx,
 * client_events_created_idx); their day counters stay. Answers how many went.
 */
export async function deleteVisitRowsBefore(db: Db, table: 'pageViews' | 'clientEvents', before: number, batch: number): Promise<number> {
  const rows = await db.selectFrom(table).select('id').where('createdAt', '<', before).limit(batch).execute();
  if (rows.length === 0) return 0;
  await db
    .deleteFrom(table)
    .where(
      'id',
      'in',
      rows.map((r) => Number(r.id)),
    )
    .execute();
  return rows.length;
}
