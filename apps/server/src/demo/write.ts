/**
 * Writes the demo business in one write transaction, in multi-row batches (column arrays on
 * PostgreSQL) through the same repositories the app writes orders and ledgers with: an order's
 * amount is its shop's price for the result, each order is charged to the shop's ledger, the
 * balance moves with the entries, the order counters (orders.repository bumpCounters) and the log's
 * per-day counters follow the orders and the log rows.
 */
import { sql, type Insertable } from 'kysely';
import { newVerificationCode } from '../modules/orders/codes.ts';
import * as ledgerRepo from '../modules/ledger/ledger.repository.ts';
import { orderRemark } from '../modules/ledger/ledger.service.ts';
import * as ordersRepo from '../modules/orders/orders.repository.ts';
import { priceFor } from '../modules/orders/orders.rules.ts';
import { DAY_MS } from '../lib/time.ts';
import { dialectOf } from '../db/dialect.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { newUserRow } from '../db/seed.ts';
import { writeDemoAnnouncements } from './announcements.ts';
import { planRecharges } from './ledger.ts';
import { writeDemoMessages } from './messages.ts';
import { demoLogs, type LoggedOrder, type LoggedRecharge } from './logs.ts';
import { writeDemoPublic } from './public.ts';
import type { DemoOrder } from './orders.ts';
import type { DemoInspector, DemoShop } from './people.ts';
import type { Rng } from './prng.ts';
import { writeDemoVisits } from './visits.ts';

export interface DemoPlan {
  now: number;
  shops: readonly DemoShop[];
  inspectors: readonly DemoInspector[];
  orders: readonly DemoOrder[];
}

export interface DemoSummary {
  shops: number;
  inspectors: number;
  orders: number;
  ledgerEntries: number;
  operationLogs: number;
  days: number;
}

const chunks = <T>(list: readonly T[], n: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));

/** Adds each row's n (and amount) to the counter with its key, creating it when absent: a few multi-row statements. */
async function addToCounters<T extends 'operationLogDaily'>(
  trx: Db,
  table: T,
  keys: readonly string[],
  rows: readonly Record<string, string | number>[],
): Promise<void> {
  const sums = rows.length > 0 && 'amount' in (rows[0] ?? {}) ? ['n', 'amount'] : ['n'];
  for (const batch of chunks(rows, 500)) {
    // The generic table defeats Kysely's per-table typing; the rows are built for it below.
    const insert = trx.insertInto(table).values(batch as never);
    if (dialectOf(trx) === 'mysql') {
      await insert
        .onDuplicateKeyUpdate(Object.fromEntries(sums.map((c) => [c, sql`${sql.ref(c)} + values(${sql.ref(c)})`])) as never)
        .execute();
    } else {
      await insert
        .onConflict((oc) =>
          oc
            .columns(keys as never)
            .doUpdateSet(Object.fromEntries(sums.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`])) as never),
        )
        .execute();
    }
  }
}

/** Sums rows by key into counter rows. */
function countBy<R>(
  rows: readonly R[],
  key: (r: R) => Record<string, string | number>,
  amount?: (r: R) => number,
): Record<string, string | number>[] {
  const out = new Map<string, Record<string, string | number>>();
  for (const r of rows) {
    const k = key(r);
    const id = Object.values(k).join('\t');
    const c = out.get(id) ?? { ...k, n: 0, ...(amount ? { amount: 0 } : {}) };
    c.n = Number(c.n) + 1;
    if (amount) c.amount = Number(c.amount) + amount(r);
    out.set(id, c);
  }
  return [...out.values()];
}

/** The new demo usernames: if any exists, the business was seeded already. */
export const newUsernames = (people: Pick<DemoPlan, 'shops' | 'inspectors'>) =>
  [...people.shops, ...people.inspectors].filter((p) => !p.existing).map((p) => p.username);

export async function writeDemo(
  trx: Db,
  plan: DemoPlan,
  rng: Rng,
  passwordHash: string,
  roleId: (name: string) => number,
): Promise<DemoSummary> {
  const { now, shops, inspectors } = plan;
  // ── people ──
  const newUsers = [
    ...shops
      .filter((s) => !s.existing)
      .map((s) =>
        newUserRow(s.username, s.nickname, roleId('shop'), passwordHash, s.createdAt, {
          ...s.prices,
          wechat: s.wechat,
          phone: s.phone,
          ifPublic: s.ifPublic,
          status: s.status,
          serviceEndAt: s.serviceEndAt,
          totpExempt: 1,
        }),
      ),
    ...inspectors
      .filter((p) => !p.existing)
      .map((p) =>
        newUserRow(p.username, p.nickname, roleId('inspector'), passwordHash, p.createdAt, { wechat: `wx_${p.username}`, totpExempt: 1 }),
      ),
  ];
  await trx.insertInto('users').values(newUsers).execute();
  for (const s of shops.filter((x) => x.existing)) {
    await trx
      .updateTable('users')
      .set({ serviceEndAt: s.serviceEndAt, wechat: s.wechat, phone: s.phone })
      .where('username', '=', s.username)
      .execute();
  }
  const names = ['superadmin', 'admin01', ...shops.map((s) => s.username), ...inspectors.map((p) => p.username)];
  const users = await trx
    .selectFrom('users')
    .select(['id', 'username', 'balance', 'defaultPrice', 'defaultPriceCheat', 'defaultPriceNotPass', 'defaultPriceSuspect'])
    .where('username', 'in', names)
    .execute();
  const byName = new Map(users.map((u) => [u.username, u]));
  const ids = new Map(users.map((u) => [u.username, Number(u.id)]));
  const idOf = (username: string) => {
    const id = ids.get(username);
    if (id === undefined) throw new Error(`demo user ${username} is missing`);
    return id;
  };

  const subscriptions = shops.flatMap((s) =>
    s.subscriptions.map((sub) => ({ userId: idOf(s.username), ...sub, operatorId: ids.get(sub.operator) ?? null })),
  );
  subscriptions.sort((a, b) => a.createdAt - b.createdAt);
  for (const batch of chunks(subscriptions, 500)) await trx.insertInto('subscriptions').values(batch).execute();

  // ── orders, with the shop's price and a fresh code ──
  const draw = (n: number) => rng.int(0, n - 1);
  const drawn = new Set<string>();
  const fresh = () => {
    let code = newVerificationCode(draw);
    while (drawn.has(code)) code = newVerificationCode(draw);
    drawn.add(code);
    return code;
  };
  const rows = plan.orders.map((o) => {
    const shop = shops[o.shop];
    const inspector = inspectors[o.inspector];
    const party = shop === undefined ? undefined : byName.get(shop.username);
    if (shop === undefined || inspector === undefined || party === undefined) throw new Error('a demo order names no shop or inspector');
    const { shop: _s, inspector: _i, ...values } = o;
    return {
      ...values,
      code: fresh(),
      userId: idOf(shop.username),
      inspectorId: idOf(inspector.username),
      createdBy: idOf(inspector.username),
      amount: priceFor(party, o.result),
    };
  });
  const idByCode = new Map<string, number>();
  let pending = rows;
  while (pending.length > 0) {
    const written = await ordersRepo.insertOrdersWithFreshCodes(trx, pending);
    for (const [code, id] of written) idByCode.set(code, id);
    // A code some earlier order took: draw again.
    pending = pending.filter((r) => !written.has(r.code)).map((r) => ({ ...r, code: fresh() }));
  }
  const inserted = rows.map((r) => ({ ...r, id: idByCode.get(r.code) ?? 0 }));

  await ordersRepo.bumpCounters(
    trx,
    inserted.map((r) => ({
      createdAt: r.createdAt,
      result: r.result,
      ifPublic: r.ifPublic,
      gameName: r.gameName,
      userId: r.userId,
      n: 1,
      amount: r.amount,
    })),
  );

  // ── ledgers: recharges and charges in time order, each entry with the balance it leaves ──
  const nameOfId = new Map(users.map((u) => [Number(u.id), u.username]));
  const entries: Insertable<Database['ledgerEntries']>[] = [];
  const totals = new Map<number, number>();
  const recharges: LoggedRecharge[] = [];
  for (const shop of shops) {
    const userId = idOf(shop.username);
    const opening = Number(byName.get(shop.username)?.balance ?? 0);
    const charges = inserted.filter((r) => r.userId === userId);
    const planned = planRecharges(
      rng.fork(`recharges:${shop.username}`),
      shop,
      charges.map((c) => ({ at: c.createdAt, amount: c.amount })),
      opening,
      now,
    );
    const events = [
      ...planned.map((p) => ({
        at: p.at,
        amount: p.amount,
        kind: 'recharge' as const,
        orderId: null,
        remark: p.remark,
        operator: 'admin01',
        operatorId: ids.get('admin01') ?? null,
      })),
      // The order's charge is posted by whoever recorded it, as createOrder does.
      ...charges.map((c) => ({
        at: c.createdAt,
        amount: -c.amount,
        kind: 'charge' as const,
        orderId: c.id,
        remark: orderRemark.charge(c.code),
        operator: nameOfId.get(c.createdBy) ?? '',
        operatorId: c.createdBy,
      })),
    ].sort((a, b) => a.at - b.at || (a.kind === b.kind ? 0 : a.kind === 'recharge' ? -1 : 1));
    let balance = opening;
    for (const e of events) {
      balance += e.amount;
      entries.push({
        userId,
        kind: e.kind,
        amount: e.amount,
        balanceAfter: balance,
        orderId: e.orderId,
        remark: e.remark,
        operator: e.operator,
        operatorId: e.operatorId,
        createdAt: e.at,
      });
      if (e.kind === 'recharge') recharges.push({ userId, username: shop.username, amount: e.amount, balanceAfter: balance, at: e.at });
    }
    totals.set(userId, balance - opening);
  }
  entries.sort((a, b) => a.createdAt - b.createdAt);
  const balances = await ledgerRepo.addToBalances(trx, totals);
  for (const [userId, total] of totals) {
    const opening = Number(byName.get(nameOfId.get(userId) ?? '')?.balance ?? 0);
    if (balances.get(userId) !== opening + total) throw new Error(`demo ledger of user #${userId} does not add up`);
  }
  await ledgerRepo.insertEntries(trx, entries);

  // ── the operation log, and each person's last sign-in ──
  const logged: LoggedOrder[] = inserted.map((r) => ({ ...r, inspector: nameOfId.get(r.inspectorId) ?? '' }));
  const logs = demoLogs(rng.fork('logs'), { now, ids, shops, orders: logged, recharges });
  for (const batch of chunks(logs, 1000)) await trx.insertInto('operationLogs').values(batch).execute();
  await addToCounters(
    trx,
    'operationLogDaily',
    ['module', 'action', 'status', 'day'],
    countBy(logs, (l) => ({ module: l.module, action: l.action, status: l.status, day: Math.floor(l.createdAt / DAY_MS) * DAY_MS })),
  );
  const lastLogin = new Map<string, number>();
  for (const l of logs) if (l.module === 'auth' && l.status === 1) lastLogin.set(l.operator, l.createdAt);
  for (const [username, at] of lastLogin) await trx.updateTable('users').set({ loginAt: at }).where('username', '=', username).execute();
  await writeDemoAnnouncements(trx, rng.fork('announcements'), now, { id: ids.get('superadmin') ?? null, name: 'superadmin' });
  await writeDemoVisits(trx, rng.fork('visits'), {
    now,
    ids,
    shops: shops.map((s) => s.username),
    inspectors: inspectors.map((p) => p.username),
  });
  await writeDemoPublic(trx, now); // published prices and the link store (demo/public.ts)
  await writeDemoMessages(trx, { now, orders: inserted, recharges });

  return {
    shops: shops.length,
    inspectors: inspectors.length,
    orders: inserted.length,
    ledgerEntries: entries.length,
    operationLogs: logs.length,
    days: Math.round((now - Math.min(...inserted.map((r) => r.createdAt))) / DAY_MS),
  };
}
