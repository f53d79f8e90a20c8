import { sql, type Insertable } from 'kysely';
import { dialectOf } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import type { Database, MessageKind, MessageRow } from '../../db/schema.ts';

/** Every query of the message box. Writes run inside the caller's transaction. */

export type NewMessage = Insertable<Database['messages']>;

const KINDS: readonly MessageKind[] = ['message', 'notice', 'todo'];

/**
 * Inserts rows; a row whose (user_id, dedupe_key) is taken already is skipped (never an error),
 * so a reminder or notice is written once per recipient whoever writes it and however often.
 */
export async function insertMessages(db: Db, rows: readonly NewMessage[]): Promise<number> {
  let written = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const insert = db.insertInto('messages').values(rows.slice(i, i + 500));
    const result =
      dialectOf(db) === 'mysql'
        ? await insert.ignore().executeTakeFirst()
        : await insert.onConflict((oc) => oc.columns(['userId', 'dedupeKey']).doNothing()).executeTakeFirst();
    written += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return written;
}

/**
 * One notice per enabled user in one INSERT … SELECT (an announcement published); a user who
 * has it already (same dedupe key) is skipped.
 */
export async function insertForEnabledUsers(
  db: Db,
  row: Pick<NewMessage, 'kind' | 'event' | 'params' | 'targetType' | 'targetId' | 'dedupeKey' | 'createdAt'>,
): Promise<number> {
  const select = db
    .selectFrom('users')
    .where('users.status', '=', 1)
    .select((eb) => [
      'users.id',
      eb.val(row.kind).as('kind'),
      eb.val(row.event).as('event'),
      eb.val(row.params).as('params'),
      eb.val(row.targetType ?? null).as('targetType'),
      eb.val(row.targetId ?? null).as('targetId'),
      eb.val(0).as('isRead'),
      eb.val(row.dedupeKey ?? null).as('dedupeKey'),
      eb.val(row.createdAt).as('createdAt'),
    ]);
  const insert = db
    .insertInto('messages')
    .columns(['userId', 'kind', 'event', 'params', 'targetType', 'targetId', 'isRead', 'dedupeKey', 'createdAt'])
    .expression(select);
  const result =
    dialectOf(db) === 'mysql'
      ? await insert.ignore().executeTakeFirst()
      : await insert.onConflict((oc) => oc.columns(['userId', 'dedupeKey']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Closes open todos about these targets (the work is done): done, and read. Answers how many. */
export async function closeTodos(
  db: Db,
  targetType: string,
  targetIds: readonly number[],
  now: number,
  exceptUser?: number,
): Promise<number> {
  let closed = 0;
  for (let i = 0; i < targetIds.length; i += 500) {
    let query = db
      .updateTable('messages')
      .set({ doneAt: now, isRead: 1, readAt: sql<number>`coalesce(read_at, ${now})` })
      .where('targetType', '=', targetType)
      .where('targetId', 'in', targetIds.slice(i, i + 500))
      .where('kind', '=', 'todo')
      .where('doneAt', 'is', null);
    if (exceptUser !== undefined) query = query.where('userId', '<>', exceptUser);
    const result = await query.executeTakeFirst();
    closed += Number(result.numUpdatedRows);
  }
  return closed;
}

/** Opens again a todo closed earlier (same recipient and key): unread, not done, new. False when there is none. */
export async function reopenTodo(db: Db, userId: number, dedupeKey: string, params: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set({ doneAt: null, isRead: 0, readAt: null, params, createdAt: now })
    .where('userId', '=', userId)
    .where('dedupeKey', '=', dedupeKey)
    .where('doneAt', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export const hasMessage = async (db: Db, userId: number, dedupeKey: string): Promise<boolean> =>
  (await db.selectFrom('messages').select('id').where('userId', '=', userId).where('dedupeKey', '=', dedupeKey).executeTakeFirst()) !==
  undefined;

export interface MessageFilter {
  userId: number;
  kind?: MessageKind;
  /** 0 unread, 1 read, undefined both. */
  isRead?: 0 | 1;
}

function filtered(db: Db, f: MessageFilter) {
  let query = db.selectFrom('messages').where('userId', '=', f.userId);
  if (f.isRead !== undefined) query = query.where('isRead', '=', f.isRead);
  if (f.kind !== undefined) query = query.where('kind', '=', f.kind);
  return query;
}

/** The page's query (built, not run: the bench compiles it too). */
export const listPageQuery = (db: Db, f: MessageFilter, offset: number, limit: number) =>
  filtered(db, f).selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset);

export const listPage = (db: Db, f: MessageFilter, offset: number, limit: number): Promise<MessageRow[]> =>
  listPageQuery(db, f, offset, limit).execute();

export const countQuery = (db: Db, f: MessageFilter) => filtered(db, f).select((eb) => eb.fn.countAll<number | string>().as('n'));

export async function countFiltered(db: Db, f: MessageFilter): Promise<number> {
  return Number((await countQuery(db, f).executeTakeFirstOrThrow()).n);
}

export interface UnreadRow {
  kind: MessageKind;
  n: number;
  /** The newest unread id of the kind: with the counts, it changes whenever the box does. */
  newest: number;
}

/** Unread counts per kind and the newest unread id of each: one range of (user_id, is_read, kind, …), index only. */
export const unreadQuery = (db: Db, userId: number) =>
  db
    .selectFrom('messages')
    .select((eb) => ['kind', eb.fn.countAll<number | string>().as('n'), eb.fn.max('id').as('newest')])
    .where('userId', '=', userId)
    .where('isRead', '=', 0)
    .where('kind', 'in', KINDS)
    .groupBy('kind');

export async function unreadByKind(db: Db, userId: number): Promise<UnreadRow[]> {
  const rows = await unreadQuery(db, userId).execute();
  return rows.map((r) => ({ kind: r.kind, n: Number(r.n), newest: Number(r.newest) }));
}

/** Of these ids, the ones that are this user's messages. */
export async function ownIds(db: Db, userId: number, ids: readonly number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('messages').select('id').where('userId', '=', userId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => Number(r.id)));
}

export async function markRead(db: Db, userId: number, ids: readonly number[], now: number): Promise<number> {
  const result = await db
    .updateTable('messages')
    .set({ isRead: 1, readAt: now })
    .where('userId', '=', userId)
    .where('id', 'in', ids)
    .where('isRead', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Enabled users whose role holds `permission` (roles.permissions is a JSON array of strings:
 * the quoted name matches exactly one entry). Roles are few; users of them are staff.
 */
export const enabledHolders = (db: Db, permission: string) =>
  db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.roleId')
    .select('users.id')
    .where('roles.permissions', 'like', `%${JSON.stringify(permission)}%`)
    .where('users.status', '=', 1)
    .execute();

/** Enabled non-staff users (shops) whose service ends in [from, to): users_service_end_idx. */
export const endingBetween = (db: Db, from: number, to: number) =>
  db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.roleId')
    .select(['users.id', 'users.username', 'users.nickname', 'users.serviceEndAt'])
    .where('users.serviceEndAt', '>=', from)
    .where('users.serviceEndAt', '<', to)
    .where('users.status', '=', 1)
    .where('roles.isAdmin', '=', 0)
    .orderBy('users.serviceEndAt')
    .execute();

/** Removes every message about one target (a deleted announcement's notices). */
export async function removeForTarget(db: Db, targetType: string, targetId: number): Promise<number> {
  const res = await db.deleteFrom('messages').where('targetType', '=', targetType).where('targetId', '=', targetId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

// ── retention (decision 0062; messages.service removeOldReadMessages, decision 0110) ──

/**
 * Read messages created before `before`, oldest first (messages_read_created_idx, 0012); unread
 * ones are never picked, nor a todo whose work is not done even when it was read.
 */
export const oldReadMessagesQuery = (db: Db, before: number, batch: number) =>
  db
    .selectFrom('messages')
    .select('id')
    .where('isRead', '=', 1)
    .where('createdAt', '<', before)
    .where((eb) => eb.or([eb('kind', '<>', 'todo'), eb('doneAt', 'is not', null)]))
    .orderBy('createdAt')
    .orderBy('id')
    .limit(batch);

/** Removes up to `batch` of oldReadMessagesQuery's messages (still read when deleted); answers how many went. */
export async function deleteOldReadMessages(db: Db, before: number, batch: number): Promise<number> {
  const rows = await oldReadMessagesQuery(db, before, batch).execute();
  if (rows.length === 0) return 0;
  await db
    .deleteFrom('messages')
    .where(
      'id',
      'in',
      rows.map((r) => Number(r.id)),
    )
    .where('isRead', '=', 1)
    .execute();
  return rows.length;
}
