import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { BUSINESS_UTC_OFFSET_MS } from '../../lib/business-time.ts';
import { DAY_MS } from '../../lib/time.ts';

/** Every query of the workplace and the order analysis: counters (migrations 0004, 0006) and the users' balances. */

const num = (v: number | string | null | undefined): number => Number(v ?? 0);

/** Sum of every user's balance (only shops are ever charged or recharged). */
export async function sumBalances(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.sum<number | string | null>('balance').as('s'))
    .executeTakeFirstOrThrow();
  return num(row.s);
}

/** Users whose service ends in [from, to] (users_service_end_idx): how many, and the soonest `limit`. */
export async function renewals(db: Db, from: number, to: number, limit: number) {
  const range = db.selectFrom('users').where('serviceEndAt', '>=', from).where('serviceEndAt', '<=', to);
  const [count, rows] = await Promise.all([
    range.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    range
      .select(['id', 'username', 'nickname', 'serviceEndAt', 'balance'])
      .orderBy('serviceEndAt', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute(),
  ]);
  return { count: num(count.n), rows };
}

/** Orders and amount of the UTC hours in [fromHour, toHour) (order_hourly). */
export async function hourlyTotal(db: Db, fromHour: number, toHour: number): Promise<{ count: number; amount: number }> {
  const row = await db
    .selectFrom('orderHourly')
    .select((eb) => [eb.fn.sum<number | string | null>('n').as('n'), eb.fn.sum<number | string | null>('amount').as('amount')])
    .where('hour', '>=', fromHour)
    .where('hour', '<', toHour)
    .executeTakeFirstOrThrow();
  return { count: num(row.n), amount: num(row.amount) };
}

/** The business day an hour belongs to, as SQL (constants inlined: PostgreSQL matches GROUP BY expressions by text). */
const businessDayOfHour = sql<number>`hour - ((hour + ${sql.lit(BUSINESS_UTC_OFFSET_MS)}) % ${sql.lit(DAY_MS)})`;

/** Orders and amount per business day of the hours in [fromHour, toHour). */
export async function dailyTotals(db: Db, fromHour: number, toHour: number) {
  const rows = await db
    .selectFrom('orderHourly')
    .select((eb) => [
      businessDayOfHour.as('day'),
      eb.fn.sum<number | string>('n').as('n'),
      eb.fn.sum<number | string>('amount').as('amount'),
    ])
    .where('hour', '>=', fromHour)
    .where('hour', '<', toHour)
    .groupBy(businessDayOfHour)
    .execute();
  return rows.map((r) => ({ day: num(r.day), count: num(r.n), amount: num(r.amount) }));
}

/** Orders and amount per UTC hour in [fromHour, toHour) (today's orders per hour). */
export async function hourlyTotals(db: Db, fromHour: number, toHour: number) {
  const rows = await db
    .selectFrom('orderHourly')
    .select((eb) => ['hour', eb.fn.sum<number | string>('n').as('n'), eb.fn.sum<number | string>('amount').as('amount')])
    .where('hour', '>=', fromHour)
    .where('hour', '<', toHour)
    .groupBy('hour')
    .orderBy('hour')
    .execute();
  return rows.map((r) => ({ hour: num(r.hour), count: num(r.n), amount: num(r.amount) }));
}

/** Orders and amount per result, all time (order_daily: a few rows per day). */
export async function resultTotals(db: Db) {
  const rows = await db
    .selectFrom('orderDaily')
    .select((eb) => ['result', eb.fn.sum<number | string>('n').as('n'), eb.fn.sum<number | string>('amount').as('amount')])
    .groupBy('result')
    .execute();
  return rows.map((r) => ({ result: r.result, count: num(r.n), amount: num(r.amount) }));
}

// ── the order analysis: business days in [fromDay, toDay) ──

export async function gameResultDays(db: Db, fromDay: number, toDay: number) {
  const rows = await db
    .selectFrom('orderGameDaily')
    .select((eb) => [
      'day',
      'gameName',
      'result',
      eb.fn.sum<number | string>('n').as('n'),
      eb.fn.sum<number | string>('amount').as('amount'),
    ])
    .where('day', '>=', fromDay)
    .where('day', '<', toDay)
    .groupBy(['day', 'gameName', 'result'])
    .execute();
  return rows.map((r) => ({ day: num(r.day), gameName: r.gameName, result: r.result, count: num(r.n), amount: num(r.amount) }));
}

/** The shops with the largest amount over the range, with their names. */
export async function topShops(db: Db, fromDay: number, toDay: number, limit: number) {
  const rows = await db
    .selectFrom('orderUserDaily as d')
    .leftJoin('users as u', 'u.id', 'd.userId')
    .select((eb) => [
      'd.userId',
      'u.username',
      'u.nickname',
      eb.fn.sum<number | string>('d.n').as('n'),
      eb.fn.sum<number | string>('d.amount').as('amount'),
    ])
    .where('d.day', '>=', fromDay)
    .where('d.day', '<', toDay)
    .groupBy(['d.userId', 'u.username', 'u.nickname'])
    .orderBy('amount', 'desc')
    .orderBy('n', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ userId: r.userId, username: r.username, nickname: r.nickname, count: num(r.n), amount: num(r.amount) }));
}
