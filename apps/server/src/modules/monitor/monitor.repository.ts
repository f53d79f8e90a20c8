import { RoleName } from '@clearplay/contract';
import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import { HOUR_MS } from '../../lib/time.ts';

/**
 * The monitor's reads. It owns no table: it reads today's orders by creation time (a range on
 * orders_created_idx) and the recent page views and client events (page_views_created_idx,
 * client_events_created_idx of 0007) of staff, joined to their users and roles.
 */

/** Orders created in [from, to) per hour since `from`: count and amount (fen). */
export async function ordersPerHour(db: Db, from: number, to: number): Promise<{ hour: number; count: number; amount: number }[]> {
  // Whole hours since `from` (a literal divisor: better-sqlite3 binds numbers as REAL, which would divide exactly).
  const hour = sql.lit(HOUR_MS);
  const bucket =
    dialectOf(db) === 'mysql'
      ? sql<number>`(created_at - ${from}) div ${hour}`
      : sql<number>`cast((created_at - ${from}) / ${hour} as integer)`;
  const rows = await db
    .selectFrom('orders')
    .select((eb) => [bucket.as('hour'), eb.fn.countAll<number | string>().as('count'), eb.fn.sum<number | string>('amount').as('amount')])
    .where('createdAt', '>=', from)
    .where('createdAt', '<', to)
    // By position: the bucket binds its own parameter, which PostgreSQL would not match with a repeated expression.
    .groupBy(sql`1`)
    .execute();
  return rows.map((r) => ({ hour: Number(r.hour), count: Number(r.count), amount: Number(r.amount ?? 0) }));
}

export interface SeenStaff {
  id: number;
  username: string;
  nickname: string;
  roleName: string;
  lastSeenAt: number;
}

/** Staff (a role with is_admin, or the inspector role) with a page view or a client event since `since`. */
export async function staffSeenSince(db: Db, since: number): Promise<SeenStaff[]> {
  const seen = async (table: 'page_views' | 'client_events') =>
    (
      await sql<{ id: number; username: string; nickname: string; roleName: string; lastSeenAt: number | string }>`
        select u.id, u.username, u.nickname, r.name as role_name, max(v.created_at) as last_seen_at
        from ${sql.table(table)} v
        join users u on u.id = v.user_id
        join roles r on r.id = u.role_id
        where v.created_at >= ${since} and (r.is_admin = 1 or r.name = ${RoleName.INSPECTOR})
        group by u.id, u.username, u.nickname, r.name`.execute(db)
    ).rows;
  const [views, events] = await Promise.all([seen('page_views'), seen('client_events')]);
  const byId = new Map<number, SeenStaff>();
  for (const row of [...views, ...events]) {
    const entry = {
      id: Number(row.id),
      username: row.username,
      nickname: row.nickname,
      roleName: row.roleName,
      lastSeenAt: Number(row.lastSeenAt),
    };
    const known = byId.get(entry.id);
    if (known === undefined || known.lastSeenAt < entry.lastSeenAt) byId.set(entry.id, entry);
  }
  return [...byId.values()].sort((a, b) => b.lastSeenAt - a.lastSeenAt || a.id - b.id);
}
