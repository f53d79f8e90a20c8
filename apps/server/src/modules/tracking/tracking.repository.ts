import type { Insertable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { ClientEventsTable, PageViewsTable } from '../../db/schema.ts';

export const insertPageView = (db: Db, row: Insertable<PageViewsTable>) => db.insertInto('pageViews').values(row).execute();

export const insertEvent = (db: Db, row: Insertable<ClientEventsTable>) => db.insertInto('clientEvents').values(row).execute();

/** The latest visit of each distinct path of one user, newest first (page_views_user_created_idx). */
export const latestPathsOf = (db: Db, userId: number, limit: number) =>
  db
    .selectFrom('pageViews')
    .select((eb) => ['path', eb.fn.max<number | string>('createdAt').as('at')])
    .where('userId', '=', userId)
    .groupBy('path')
    .orderBy('at', 'desc')
    .limit(limit)
    .execute();
