import type { Insertable } from 'kysely';
import { insertReturningId } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';

/** Pinned first, then newest (announcements_list_idx / announcements_type_list_idx, read backwards). */
export function listPage(db: Db, type: string | undefined, offset: number, limit: number) {
  let q = db.selectFrom('announcements').selectAll();
  if (type !== undefined) q = q.where('type', '=', type);
  return q.orderBy('pinned', 'desc').orderBy('publishedAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export async function count(db: Db, type: string | undefined): Promise<number> {
  let q = db.selectFrom('announcements').select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (type !== undefined) q = q.where('type', '=', type);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export const findById = (db: Db, id: number) => db.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst();

export const insert = (db: Db, row: Insertable<Database['announcements']>) => insertReturningId(db, 'announcements', row);

export const remove = async (db: Db, id: number): Promise<number> =>
  Number((await db.deleteFrom('announcements').where('id', '=', id).executeTakeFirst()).numDeletedRows);
