import { HISTORY_CHAT_IDS_MAX, HISTORY_LIST_MAX, HISTORY_MACHINES_MAX } from '@clearplay/contract';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { Database } from '../../../db/schema.ts';
import { where, withNames } from '../orders.repository.ts';
import { chatKeyOf } from '../orders.target-key.ts';

export { chatKeyFor } from '../orders.target-key.ts';

/**
 * Target history queries (decision 0059). A target is found by its normalized chat
 * ID, lower(obj_wechat) = lower(?) (migration 0010's index; a virtual column on MariaDB), and a
 * machine by its MAC in normal form (0004's orders_mac_idx). Every query carries the order
 * list's visibility (`visibleTo`: a shop's own orders and every public one) and, for the
 * history of an existing order, "created before it".
 */

type OrdersEb = ExpressionBuilder<Database, 'orders'>;

export interface HistoryScope {
  /** A shop's view (its own orders and every public one); undefined for staff. */
  visibleTo?: number;
  /** Only records created before this one (created_at, id), the record itself excluded. */
  before?: { createdAt: number; id: number };
}

function scoped(db: Db, eb: OrdersEb, scope: HistoryScope): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [where(db, eb, { visibleTo: scope.visibleTo })];
  const { before } = scope;
  if (before !== undefined)
    parts.push(
      eb.or([
        eb('orders.createdAt', '<', before.createdAt),
        eb.and([eb('orders.createdAt', '=', before.createdAt), eb('orders.id', '<', before.id)]),
      ]),
    );
  return eb.and(parts);
}

const newestFirst = <Q extends { orderBy: (ref: 'orders.createdAt' | 'orders.id', dir: 'desc') => Q }>(q: Q): Q =>
  q.orderBy('orders.createdAt', 'desc').orderBy('orders.id', 'desc');

/** The latest records under this chat ID (key from chatKeyFor). The queries are exported for the bench's raw SQL. */
export const sameTargetQuery = (db: Db, key: string, scope: HistoryScope) =>
  newestFirst(
    withNames(db)
      .where(chatKeyOf(db), '=', key)
      .where((eb) => scoped(db, eb as unknown as OrdersEb, scope)),
  ).limit(HISTORY_LIST_MAX);
export const sameTarget = (db: Db, key: string, scope: HistoryScope) => sameTargetQuery(db, key, scope).execute();

/** Records under this chat ID counted by result (every visible one, not only the listed). */
export const countByResultQuery = (db: Db, key: string, scope: HistoryScope) =>
  db
    .selectFrom('orders')
    .select((eb) => ['orders.result', eb.fn.countAll<number | string>().as('n')])
    .where(chatKeyOf(db), '=', key)
    .where((eb) => scoped(db, eb, scope))
    .groupBy('orders.result');
export const countByResult = (db: Db, key: string, scope: HistoryScope) => countByResultQuery(db, key, scope).execute();

/** The latest cheating (1) or suspicious (3) record under this chat ID. */
export const latestFlagged = (db: Db, key: string, scope: HistoryScope) =>
  newestFirst(
    withNames(db)
      .where(chatKeyOf(db), '=', key)
      .where('orders.result', 'in', [1, 3])
      .where((eb) => scoped(db, eb as unknown as OrdersEb, scope)),
  )
    .limit(1)
    .executeTakeFirst();

/**
 * The machines this chat ID was recorded on, latest first (at most HISTORY_MACHINES_MAX), from
 * the records the reader may see: what the history looks at when only the chat ID is known.
 */
export async function targetMachines(db: Db, key: string, scope: HistoryScope): Promise<string[]> {
  const rows = await db
    .selectFrom('orders')
    .select('orders.mac')
    .where(chatKeyOf(db), '=', key)
    .where((eb) => scoped(db, eb, scope))
    .groupBy('orders.mac')
    .orderBy(sql`max(${sql.ref('orders.createdAt')})`, 'desc')
    .limit(HISTORY_MACHINES_MAX)
    .execute();
  return rows.map((r) => r.mac);
}

/** The latest records of these machines, under any chat ID but `exceptKey` when given. */
export const sameMachineQuery = (db: Db, macs: readonly string[], exceptKey: string | undefined, scope: HistoryScope) => {
  let q = withNames(db)
    .where('orders.mac', 'in', macs)
    .where((eb) => scoped(db, eb as unknown as OrdersEb, scope));
  if (exceptKey !== undefined) q = q.where(chatKeyOf(db), '<>', exceptKey);
  return newestFirst(q).limit(HISTORY_LIST_MAX);
};
export const sameMachine = async (db: Db, macs: readonly string[], exceptKey: string | undefined, scope: HistoryScope) =>
  macs.length === 0 ? [] : sameMachineQuery(db, macs, exceptKey, scope).execute();

/** The chat IDs these machines were seen under (but `exceptKey`), latest first: one spelling of each. */
export const machineChatIdsQuery = (db: Db, macs: readonly string[], exceptKey: string | undefined, scope: HistoryScope) => {
  let q = db
    .selectFrom('orders')
    .select((eb) => [eb.fn.max('orders.objWechat').as('objWechat'), eb.fn.max('orders.createdAt').as('last')])
    .where('orders.mac', 'in', macs)
    .where((eb) => scoped(db, eb, scope));
  if (exceptKey !== undefined) q = q.where(chatKeyOf(db), '<>', exceptKey);
  return q
    .groupBy(chatKeyOf(db))
    .orderBy(sql`max(${sql.ref('orders.createdAt')})`, 'desc')
    .limit(HISTORY_CHAT_IDS_MAX);
};
export async function machineChatIds(
  db: Db,
  macs: readonly string[],
  exceptKey: string | undefined,
  scope: HistoryScope,
): Promise<string[]> {
  if (macs.length === 0) return [];
  const rows = await machineChatIdsQuery(db, macs, exceptKey, scope).execute();
  return rows.map((r) => String(r.objWechat));
}

/** The first cheating record's time per chat key, among these keys, as the reader sees them (the list's marker). */
export async function firstCheats(db: Db, keys: readonly string[], visibleTo: number | undefined): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('orders')
    .select((eb) => [chatKeyOf(db).as('chatKey'), eb.fn.min('orders.createdAt').as('first')])
    .where(chatKeyOf(db), 'in', [...new Set(keys)])
    .where('orders.result', '=', 1)
    .where((eb) => where(db, eb, { visibleTo }))
    .groupBy(chatKeyOf(db))
    .execute();
  return new Map(rows.map((r) => [String(r.chatKey), Number(r.first)]));
}

/** The MAC of the latest record per chat key, among these keys, as the reader sees them (import proposals). */
export async function latestMacByKey(db: Db, keys: readonly string[], visibleTo: number | undefined): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const latest = await db
    .selectFrom('orders')
    .select((eb) => [chatKeyOf(db).as('chatKey'), eb.fn.max('orders.createdAt').as('last')])
    .where(chatKeyOf(db), 'in', keys)
    .where((eb) => where(db, eb, { visibleTo }))
    .groupBy(chatKeyOf(db))
    .execute();
  if (latest.length === 0) return new Map();
  const rows = await db
    .selectFrom('orders')
    .select([chatKeyOf(db).as('chatKey'), 'orders.mac', 'orders.createdAt', 'orders.id'])
    .where(
      chatKeyOf(db),
      'in',
      latest.map((r) => String(r.chatKey)),
    )
    .where('orders.createdAt', 'in', [...new Set(latest.map((r) => Number(r.last)))])
    .where((eb) => where(db, eb, { visibleTo }))
    .execute();
  const last = new Map(latest.map((r) => [String(r.chatKey), Number(r.last)]));
  const best = new Map<string, { id: number; mac: string }>();
  for (const r of rows) {
    const key = String(r.chatKey);
    if (Number(r.createdAt) !== last.get(key)) continue;
    const seen = best.get(key);
    if (seen === undefined || Number(r.id) > seen.id) best.set(key, { id: Number(r.id), mac: r.mac });
  }
  return new Map([...best].map(([key, v]) => [key, v.mac]));
}

/** The chat keys each of these MACs was seen under, as the reader sees them (import counts); at most HISTORY_CHAT_IDS_MAX + 1 per MAC matter. */
export async function machineKeys(db: Db, macs: readonly string[], visibleTo: number | undefined): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  if (macs.length === 0) return found;
  const rows = await db
    .selectFrom('orders')
    .select([chatKeyOf(db).as('chatKey'), 'orders.mac'])
    .where('orders.mac', 'in', macs)
    .where((eb) => where(db, eb, { visibleTo }))
    .groupBy(['orders.mac', chatKeyOf(db)])
    .execute();
  for (const r of rows) found.set(r.mac, (found.get(r.mac) ?? new Set()).add(String(r.chatKey)));
  return found;
}
