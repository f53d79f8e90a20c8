import type { Insertable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { ClientEventsTable, PageViewsTable } from '../../db/schema.ts';

export const insertPageView = (db: Db, row: Insertable<PageViewsTable>) => db.insertInto('pageViews').values(row).execute();

export const insertEvent = (db: Db, row: Insertable<ClientEventsTable>) => db.insertInto('clientEvents').values(row).execute();
