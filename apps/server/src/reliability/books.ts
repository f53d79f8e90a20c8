/**
 * The books of the business, read straight from the database (decision 0100): what must be equal
 * whatever happened before (a load, a kill -9, a restart). Used by the fault tests
 * (faults.test.ts) and the load bench (bench/books.ts).
 *
 * - every user's balance is the sum of their ledger, and their last entry's balance after;
 * - no verification code is used twice;
 * - the counters the list and the workplace read (order_daily, order_hourly, order_game_daily,
 *   order_user_daily) equal a recount of the orders, per group.
 */
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

export interface Books {
  orders: { n: number; amount: number };
  ledger: { n: number; amount: number };
  /** Sum of every user's balance. */
  balances: number;
  usersChecked: number;
  /** What does not hold, each a sentence; empty when the books hold. */
  broken: string[];
}

const num = (v: unknown) => Number(v ?? 0);

/** The counter tables and the order columns each groups by. */
const COUNTERS = [
  ['order_daily', ['result', 'if_public']],
  ['order_hourly', ['result', 'if_public']],
  ['order_game_daily', ['game_name', 'result']],
  ['order_user_daily', ['user_id', 'result']],
] as const;

export async function readBooks(db: Db): Promise<Books> {
  const broken: string[] = [];
  const run = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;

  const [orders] = await run(sql<{ n: unknown; amount: unknown }>`select count(*) as n, coalesce(sum(amount), 0) as amount from orders`);
  const [ledger] = await run(
    sql<{ n: unknown; amount: unknown }>`select count(*) as n, coalesce(sum(amount), 0) as amount from ledger_entries`,
  );

  const users = await run(
    sql<{ id: unknown; balance: unknown; total: unknown; last: unknown; entries: unknown }>`
      select u.id, u.balance,
        (select coalesce(sum(l.amount), 0) from ledger_entries l where l.user_id = u.id) as total,
        (select l.balance_after from ledger_entries l where l.user_id = u.id order by l.id desc limit 1) as last,
        (select count(*) from ledger_entries l where l.user_id = u.id) as entries
      from users u`,
  );
  const off = users.filter((u) => num(u.balance) !== num(u.total) || (num(u.entries) > 0 && num(u.last) !== num(u.balance)));
  if (off.length > 0) {
    const [u] = off;
    broken.push(`${off.length} users' balance differs from their ledger (user ${num(u!.id)}: ${num(u!.balance)}, ledger ${num(u!.total)})`);
  }

  const codes = await run(sql<{ code: string }>`select code from orders group by code having count(*) > 1`);
  if (codes.length > 0) broken.push(`${codes.length} verification codes are used by more than one order (e.g. ${codes[0]!.code})`);

  for (const [table, keys] of COUNTERS) {
    const columns = sql.join(keys.map((k) => sql.ref(k)));
    const counted = await run(
      sql<Record<string, unknown>>`select ${columns}, sum(n) as n, sum(amount) as amount from ${sql.table(table)} group by ${columns}`,
    );
    const recount = await run(
      sql<Record<string, unknown>>`select ${columns}, count(*) as n, sum(amount) as amount from orders group by ${columns}`,
    );
    // The rows come back through the CamelCasePlugin: game_name as gameName.
    const keyOf = (row: Record<string, unknown>) =>
      keys.map((k) => String(row[k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())])).join(':');
    const want = new Map(recount.map((r) => [keyOf(r), `${num(r.n)} orders / ${num(r.amount)} fen`]));
    const got = new Map(counted.filter((r) => num(r.n) !== 0).map((r) => [keyOf(r), `${num(r.n)} orders / ${num(r.amount)} fen`]));
    const differ = [...new Set([...want.keys(), ...got.keys()])].filter((k) => want.get(k) !== got.get(k));
    if (differ.length > 0) {
      const k = differ[0]!;
      broken.push(
        `${table}: ${differ.length} groups differ from a recount (${k}: ${got.get(k) ?? 'none'}, recount ${want.get(k) ?? 'none'})`,
      );
    }
  }

  const balances = users.reduce((sum, u) => sum + num(u.balance), 0);
  if (balances !== num(ledger?.amount)) broken.push(`the balances add up to ${balances}, the ledger to ${num(ledger?.amount)}`);
  return {
    orders: { n: num(orders?.n), amount: num(orders?.amount) },
    ledger: { n: num(ledger?.n), amount: num(ledger?.amount) },
    balances,
    usersChecked: users.length,
    broken,
  };
}
