import type { Db } from '../../db/index.ts';
import { insertReturningId } from '../../db/dialect.ts';
import { preparedRead } from '../../db/prepared-read.ts';
import type { RevokeReason } from '../../db/schema.ts';

/** What the spec's Current user is built from, besides id and username (auth.service toCurrentUser). */
const CURRENT_USER_COLUMNS = [
  'users.nickname',
  'users.roleId',
  'users.wechat',
  'users.phone',
  'users.avatar',
  'users.status',
  'roles.name as roleName',
  'roles.description as roleDescription',
  'roles.descriptionEn as roleDescriptionEn',
  'roles.permissions as rolePermissions',
  'roles.isAdmin as roleIsAdmin',
] as const;

const userWithRole = (db: Db) =>
  db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.roleId')
    .select(['users.id', 'users.username', 'users.passwordHash', 'users.totpSecret', 'users.totpExempt', ...CURRENT_USER_COLUMNS]);

export type UserWithRole = NonNullable<Awaited<ReturnType<typeof findUserByUsername>>>;

export const findUserByUsername = (db: Db, username: string) => userWithRole(db).where('users.username', '=', username).executeTakeFirst();

/**
 * The session of a token hash, with its user and role: the one query of an authenticated
 * request, answered by the unique index on sessions.token_hash and the two primary keys.
 * Compiled once per database (on SQLite, prepared once on a reading connection); it reads the
 * rows every time, so a revocation, a disabled account or a changed role counts at the very
 * next call, whichever process made it.
 */
export const findSessionByTokenHash = preparedRead(
  (db: Db, tokenHash: string) =>
    db
      .selectFrom('sessions')
      .leftJoin('users', 'users.id', 'sessions.userId')
      .leftJoin('roles', 'roles.id', 'users.roleId')
      .select([
        'sessions.id as sessionId',
        'sessions.userId',
        'sessions.expiresAt',
        'sessions.lastSeenAt',
        'sessions.revokedAt',
        'sessions.revokeReason',
        'sessions.viewRole',
        'sessions.viewUserId',
        'users.username',
        ...CURRENT_USER_COLUMNS,
      ])
      .where('sessions.tokenHash', '=', tokenHash),
  ['<token hash>'],
);

export const insertSession = (
  db: Db,
  session: { tokenHash: string; userId: number; createdAt: number; expiresAt: number; ip: string; userAgent: string },
) => insertReturningId(db, 'sessions', { ...session, lastSeenAt: session.createdAt, revokedAt: null, revokeReason: null });

export const touchSession = (db: Db, sessionId: number, at: number) =>
  db.updateTable('sessions').set({ lastSeenAt: at }).where('id', '=', sessionId).execute();

export const revokeSession = (db: Db, sessionId: number, reason: RevokeReason, at: number) =>
  db
    .updateTable('sessions')
    .set({ revokedAt: at, revokeReason: reason })
    .where('id', '=', sessionId)
    .where('revokedAt', 'is', null)
    .execute();

/** Revokes every live session of a user; returns how many. */
export async function revokeSessionsOfUser(db: Db, userId: number, reason: RevokeReason, at: number): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revokedAt: at, revokeReason: reason })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export const setLoginAt = (db: Db, userId: number, at: number) =>
  db.updateTable('users').set({ loginAt: at }).where('id', '=', userId).execute();

/** bad_code: a wrong authenticator or recovery code after the right password (decision 0091). */
export type LoginReason = 'ok' | 'unknown_user' | 'bad_password' | 'disabled' | 'locked' | 'bad_code';

export const insertLoginRecord = (
  db: Db,
  record: {
    username: string;
    userId: number | null;
    ip: string;
    userAgent: string;
    success: boolean;
    reason: LoginReason;
    createdAt: number;
  },
) =>
  db
    .insertInto('loginRecords')
    .values({ ...record, success: record.success ? 1 : 0 })
    .execute();

/** When this (username, ip) pair last logged in successfully, if ever. */
export async function lastSuccessAt(db: Db, username: string, ip: string): Promise<number | null> {
  const row = await db
    .selectFrom('loginRecords')
    .select((eb) => eb.fn.max('createdAt').as('at'))
    .where('username', '=', username)
    .where('ip', '=', ip)
    .where('success', '=', 1)
    .executeTakeFirst();
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}

/** Times of the most recent counted failures of a pair after `since`, newest first. */
export async function recentFailureTimes(db: Db, username: string, ip: string, since: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('loginRecords')
    .select('createdAt')
    .where('username', '=', username)
    .where('ip', '=', ip)
    .where('createdAt', '>', since)
    .where('success', '=', 0)
    .where('reason', '<>', 'locked')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.createdAt));
}

// ── a user's own sessions and sign-ins (user centre); not on the session check's path ──

/** Revokes every live session of a user but `keep`; returns how many. */
export async function revokeOtherSessionsOfUser(db: Db, userId: number, keep: number, reason: RevokeReason, at: number): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revokedAt: at, revokeReason: reason })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .where('id', '<>', keep)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Live sessions of a user (sessions_user_id_idx: user_id, revoked_at), newest first. */
export const liveSessionsOf = (db: Db, userId: number, now: number) =>
  db
    .selectFrom('sessions')
    .select(['id', 'ip', 'userAgent', 'createdAt', 'lastSeenAt', 'expiresAt'])
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', now)
    .orderBy('id', 'desc')
    .limit(100)
    .execute();

/** A user's own sign-ins, newest first (login_records_user_created_idx, 0009). */
export const loginRecordsOf = (db: Db, userId: number, offset: number, limit: number) =>
  db
    .selectFrom('loginRecords')
    .select(['id', 'ip', 'userAgent', 'success', 'reason', 'createdAt'])
    .where('userId', '=', userId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();

export async function countLoginRecordsOf(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('loginRecords')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ── switch roles (decision 0060): read only when a session views as another role ──

/** A role by name, for the view of admin or inspector (read on every call of such a session: prepared once). */
export const findRoleByName = preparedRead(
  (db: Db, name: string) =>
    db.selectFrom('roles').select(['id', 'name', 'description', 'descriptionEn', 'permissions', 'isAdmin']).where('name', '=', name),
  ['<role name>'],
);

/** A user with their role, for the view of one shop account (read on every call of such a session: prepared once). */
export const findUserWithRoleById = preparedRead(
  (db: Db, id: number) =>
    db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.roleId')
      .select(['users.id', 'users.username', ...CURRENT_USER_COLUMNS])
      .where('users.id', '=', id),
  [-1],
);

/** Sets (or, with nulls, clears) what a live session views the app as; answers whether a row changed. */
export async function setSessionView(db: Db, sessionId: number, viewRole: string | null, viewUserId: number | null): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ viewRole, viewUserId })
    .where('id', '=', sessionId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// ── retention (decision 0035; the job in modules/jobs/retention.ts calls auth.service, decision 0110) ──

/**
 * Removes the rows of `table` named in `rows` (one retention batch, picked through the table's own
 * index by the caller); answers how many went.
 */
export async function deleteRowsById(
  db: Db,
  table: 'sessions' | 'loginRecords' | 'loginTickets',
  rows: readonly { id: number }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  await db
    .deleteFrom(table)
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return rows.length;
}

/** Removes up to `batch` sessions that expired before `before` (sessions_expires_at_idx); answers how many went. */
export const deleteExpiredSessions = async (db: Db, before: number, batch: number): Promise<number> =>
  deleteRowsById(db, 'sessions', await db.selectFrom('sessions').select('id').where('expiresAt', '<', before).limit(batch).execute());

/** Removes up to `batch` login records written before `before` (login_records_created_at_idx); answers how many went. */
export const deleteLoginRecordsBefore = async (db: Db, before: number, batch: number): Promise<number> =>
  deleteRowsById(
    db,
    'loginRecords',
    await db.selectFrom('loginRecords').select('id').where('createdAt', '<', before).limit(batch).execute(),
  );
