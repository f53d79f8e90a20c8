import { sql, type CompiledQuery, type Expression, type ExpressionBuilder, type Insertable, type SqlBool, type Updateable } from 'kysely';
import { dialectOf, insertReturningId } from '../../db/dialect.ts';
import { lowerPrefix } from '../../db/text-search.ts';
import type { Db } from '../../db/index.ts';
import type { Database, SubscriptionRow } from '../../db/schema.ts';

/** Filters of the user list, normalised (trimmed text, epoch ms). */
export interface UserFilter {
  username?: string;
  nickname?: string;
  wechat?: string;
  phone?: string;
  roleId?: number;
  status?: number;
  /** service_end_at bounds: `endIsNull`, or (endAfter, endAtMost]. */
  endIsNull?: boolean;
  endAfter?: number;
  endAtMost?: number;
  createdStart?: number;
  createdEnd?: number;
}

type UsersEb = ExpressionBuilder<Database, 'users'>;

function where(db: Db, eb: UsersEb, f: UserFilter): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  for (const column of ['username', 'nickname', 'wechat', 'phone'] as const) {
    const value = f[column];
    if (value !== undefined) parts.push(lowerPrefix(db, `users.${column}`, value));
  }
  if (f.roleId !== undefined) parts.push(eb('users.roleId', '=', f.roleId));
  if (f.status !== undefined) parts.push(eb('users.status', '=', f.status));
  if (f.endIsNull === true) parts.push(eb('users.serviceEndAt', 'is', null));
  if (f.endAfter !== undefined) parts.push(eb('users.serviceEndAt', '>', f.endAfter));
  if (f.endAtMost !== undefined) parts.push(eb('users.serviceEndAt', '<=', f.endAtMost));
  if (f.createdStart !== undefined) parts.push(eb('users.createdAt', '>=', f.createdStart));
  if (f.createdEnd !== undefined) parts.push(eb('users.createdAt', '<=', f.createdEnd));
  return eb.and(parts);
}

const USER_COLUMNS = [
  'users.id',
  'users.username',
  'users.nickname',
  'users.roleId',
  'users.wechat',
  'users.phone',
  'users.avatar',
  'users.ifPublic',
  'users.status',
  'users.createdAt',
  'users.loginAt',
  'users.defaultPrice',
  'users.defaultPriceCheat',
  'users.defaultPriceSuspect',
  'users.defaultPriceNotPass',
  'users.serviceEndAt',
  'users.totpEnabledAt',
  'roles.name as roleName',
  'roles.isAdmin as roleIsAdmin',
  'roles.permissions as rolePermissions',
] as const;

const withRole = (db: Db) => db.selectFrom('users').innerJoin('roles', 'roles.id', 'users.roleId').select(USER_COLUMNS);

export type UserWithRoleRow = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

/** Does the filter search text by prefix (served by the lower(column) indexes)? */
export const hasTextFilter = (f: UserFilter) => [f.username, f.nickname, f.wechat, f.phone].some((v) => v !== undefined);

/**
 * At most this many matches of a text-prefix filter are read through the filter's index and
 * sorted, rather than found by walking the created_at index newest-first.
 */
export const DRIVE_FROM_FILTER_MAX = 20_000;

/**
 * One page, newest first. With `driveFromFilter`, the sort key is `created_at + 0`, which no
 * index provides, so the planner reads the matches through the text filter's own index and
 * sorts them. Without it, a planner that expects the matches spread evenly may walk the
 * created_at index backwards and filter — fast for common prefixes, but a full walk of the
 * table when the matches are clustered among old rows (PostgreSQL: 55 ms on 100k users for
 * a prefix matching 1,000 early accounts, 0.4 ms driven from the filter).
 */
export const listPage = (db: Db, f: UserFilter, offset: number, limit: number, driveFromFilter = false) =>
  withRole(db)
    .where((eb) => where(db, eb as unknown as UsersEb, f))
    .orderBy(driveFromFilter ? sql`${sql.ref('users.createdAt')} + 0` : sql.ref('users.createdAt'), 'desc')
    .orderBy('users.id', 'desc')
    .limit(limit)
    .offset(offset);

/** A query answering one row `{n}`. */
export interface CountQuery {
  compile(): CompiledQuery;
  executeTakeFirstOrThrow(): Promise<{ n: number | string | null }>;
}

const onlyRoleAndStatus = (f: UserFilter) =>
  Object.entries(f).every(([key, value]) => value === undefined || key === 'roleId' || key === 'status');

/**
 * The count behind the list's total. With no filter but role and status, the trigger-kept
 * user_counts answer it from a handful of rows (SQLite, PostgreSQL); otherwise users only, no
 * join, so an index answers it alone.
 */
export function countQuery(db: Db, f: UserFilter): CountQuery {
  if (onlyRoleAndStatus(f) && dialectOf(db) !== 'mysql') {
    let q = db.selectFrom('userCounts').select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('n'), sql<number>`0`).as('n'));
    if (f.roleId !== undefined) q = q.where('roleId', '=', f.roleId);
    if (f.status !== undefined) q = q.where('status', '=', f.status);
    return q;
  }
  return db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where((eb) => where(db, eb, f));
}

export const findUserById = (db: Db, id: number) => withRole(db).where('users.id', '=', id).executeTakeFirst();

/** Picker look-up: username or nickname prefix, optionally one role, enabled unless asked. */
export function search(db: Db, opts: { keyword?: string; roleName?: string; includeDisabled: boolean; limit: number }) {
  let q = db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.roleId')
    .select(['users.id', 'users.username', 'users.nickname', 'roles.name as roleName', 'users.status']);
  const { keyword } = opts;
  if (keyword !== undefined)
    q = q.where((eb) => eb.or([lowerPrefix(db, 'users.username', keyword), lowerPrefix(db, 'users.nickname', keyword)]));
  if (opts.roleName !== undefined) q = q.where('roles.name', '=', opts.roleName);
  if (!opts.includeDisabled) q = q.where('users.status', '=', 1);
  return q.orderBy('users.username').limit(opts.limit).execute();
}

export const usernameExists = async (db: Db, username: string) =>
  (await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()) !== undefined;

export const insertUser = (db: Db, row: Insertable<Database['users']>) => insertReturningId(db, 'users', row);
export const updateUser = (db: Db, id: number, set: Updateable<Database['users']>) =>
  db.updateTable('users').set(set).where('id', '=', id).execute();
export const deleteUser = (db: Db, id: number) => db.deleteFrom('users').where('id', '=', id).execute();

export const findRole = (db: Db, id: number) => db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();

/** Enabled users holding the role of this name. */
export const countEnabledWithRole = async (db: Db, roleName: string) =>
  Number(
    (
      await db
        .selectFrom('users')
        .innerJoin('roles', 'roles.id', 'users.roleId')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('roles.name', '=', roleName)
        .where('users.status', '=', 1)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const insertSubscription = (db: Db, row: Insertable<Database['subscriptions']>) => insertReturningId(db, 'subscriptions', row);

export const subscriptionsOf = (db: Db, userId: number) =>
  db.selectFrom('subscriptions').selectAll().where('userId', '=', userId).orderBy('id', 'desc').execute();

export const countSubscriptions = async (db: Db, userId: number) =>
  Number(
    (
      await db
        .selectFrom('subscriptions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('userId', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The newest subscription record of each user (subscriptions_user_id_idx). */
export async function latestSubscriptions(db: Db, userIds: readonly number[]): Promise<Map<number, SubscriptionRow>> {
  const latest = new Map<number, SubscriptionRow>();
  if (userIds.length === 0) return latest;
  const rows = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('subscriptions')
        .select((e) => e.fn.max('id').as('id'))
        .where('userId', 'in', userIds)
        .groupBy('userId'),
    )
    .execute();
  for (const row of rows) latest.set(row.userId, row);
  return latest;
}

/** The avatars of up to `batch` users after id `afterId`, in id order (the upload retention sweep's references). */
export const avatarsAfter = (db: Db, afterId: number, batch: number) =>
  db.selectFrom('users').select(['id', 'avatar']).where('id', '>', afterId).orderBy('id').limit(batch).execute();
