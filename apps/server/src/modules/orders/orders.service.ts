// Over 400 lines: the order calls' transactions (create, edit, delete, import), each with its ledger, counters and message-box writes; the checks live in orders.rules.ts.
import {
  formatMoney,
  macFilterPrefix,
  ORDER_DICTS,
  type OrderCreateBody,
  type OrderExportQuery,
  type OrderItem,
  type OrderListQuery,
  type OrderPrices,
  type OrderResult,
  type OrderUpdateBody,
} from '@clearplay/contract';
import { textFilter } from '../../db/text-search.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Db } from '../../db/index.ts';
import type { OrderRow } from '../../db/schema.ts';
import type { Operator } from '../../http/route-context.ts';
import { AppError, FieldAppError } from '../../lib/errors.ts';
import { DAY_MS, nowMs, toIso } from '../../lib/time.ts';
import { enabledEntriesOf } from '../dicts/dicts.service.ts';
import * as ledger from '../ledger/ledger.service.ts';
import * as messages from '../messages/messages.service.ts';
import { newVerificationCode } from './codes.ts';
import * as repo from './orders.repository.ts';
import {
  checkOrder,
  displayName,
  editsAny,
  priceFor,
  seesAll,
  type CheckContext,
  type Issue,
  type OrderInput,
  type OrderValues,
} from './orders.rules.ts';
import type { LogPart } from '../../lib/log-text.ts';

/**
 * Detection orders (docs/product.md "Orders" and "Money"): who sees which order,
 * the list and its counts, and the writes that keep each shop's balance equal to the sum of
 * its ledger. The rules and checks themselves are in orders.rules.ts.
 */

/** For the workplace's order lists: evidence goes out signed, as from the order list (decision 0082). */
export { withSignedImages } from './orders.images.ts';
/** For the upload retention sweep (modules/jobs/retention.ts): the image URLs every order names, page by page. */
export { orderImageUrls } from './orders.images.ts';
/** For the monitor: an import's outcome as its operation-log row records it. */
export { readImportLogDetails, type ImportLogDetails } from './import/outcome.ts';

export function toOrderItem(row: repo.OrderWithNamesRow, op: Operator): OrderItem {
  const full = seesAll(op) || row.userId === op.id;
  return {
    id: Number(row.id),
    code: row.code,
    objWechat: row.objWechat,
    objWechatName: row.objWechatName,
    gameName: row.gameName,
    mac: row.mac,
    installationTime: toIso(Number(row.installationAt)),
    result: row.result as OrderResult,
    userId: full ? row.userId : null,
    userName: full ? displayName(row.clientNickname, row.clientUsername) : null,
    objClientName: row.objClientName,
    inspectorId: full ? row.inspectorId : null,
    inspectorName: full ? displayName(row.inspectorNickname, row.inspectorUsername) : null,
    amount: full ? Number(row.amount) : null,
    ifPublic: row.ifPublic === 1 ? 1 : 0,
    ifChangedMac: row.ifChangedMac === 1 ? 1 : 0,
    description: row.description,
    certImages: row.certImages,
    proofImages: row.proofImages,
    personCertImages: row.personCertImages,
    createdTime: toIso(Number(row.createdAt)),
    updatedTime: toIso(Number(row.updatedAt)),
    view: full ? 'full' : 'public',
  };
}

// ── list, detail ──

/** The query as repository filters, narrowed to what the operator may see. Null: nothing can match. */
export function toOrderFilter(query: OrderExportQuery, op: Operator): repo.OrderFilter | null {
  const f: repo.OrderFilter = {
    objWechat: textFilter(query.objWechat),
    objWechatName: textFilter(query.objWechatName),
    objClientName: textFilter(query.objClientName),
    gameName: textFilter(query.gameName),
    code: textFilter(query.code),
    result: query.result,
    userId: query.userId,
    inspectorId: query.inspectorId,
    ifPublic: query.ifPublic,
    ifChangedMac: query.ifChangedMac,
    start: query.orderStartTime === undefined ? undefined : Date.parse(query.orderStartTime),
    end: query.orderEndTime === undefined ? undefined : Date.parse(query.orderEndTime),
  };
  const mac = textFilter(query.mac);
  if (mac !== undefined) {
    const prefix = macFilterPrefix(mac);
    if (prefix === null) throw new FieldAppError(400, 'mac', 'order.macFilter', { value: mac });
    f.macPrefix = prefix;
  }
  if (f.start !== undefined && f.end !== undefined && f.start > f.end) throw new FieldAppError(400, 'orderEndTime', 'order.timeRange');
  if (!seesAll(op)) {
    // A shop: its own orders, plus other shops' public ones. Filtering by another shop can
    // only ever show that shop's public orders.
    // A shop never learns which shop another public order belongs to: filtering by another
    // client matches nothing.
    if (f.userId !== undefined && f.userId !== op.id) return null;
    if (f.userId === undefined) f.visibleTo = op.id;
  }
  if (query.repeatOnly === 1) f.repeatOnly = { visibleTo: seesAll(op) ? undefined : op.id };
  return f;
}

export const toSort = (query: Pick<OrderExportQuery, 'sortField' | 'sortOrder'>): repo.OrderSort => ({
  field: query.sortField === 'amount' ? 'amount' : 'createdAt',
  dir: query.sortOrder === 'ascend' ? 'asc' : 'desc',
});

const onlyCounterKeys = (f: repo.OrderFilter) =>
  Object.entries(f).every(
    ([key, value]) => value === undefined || key === 'result' || key === 'ifPublic' || key === 'start' || key === 'end',
  );

/**
 * The list's total. With no filter but result, public flag and time range, whole days come
 * from order_daily and only the partial days at the edges are counted row by row. A shop's
 * view (its own + every public order) is its own private orders (one index range) plus the
 * public counters. Anything else is counted directly (those filters are selective).
 */
export async function countOrders(db: Db, f: repo.OrderFilter): Promise<number> {
  if (f.visibleTo !== undefined && f.ifPublic === undefined) {
    const { visibleTo, ...rest } = f;
    if (onlyCounterKeys(rest)) {
      const [own, shared] = await Promise.all([
        repo.countExact(db, { ...rest, userId: visibleTo, ifPublic: 0 }),
        countByCounters(db, { ...rest, ifPublic: 1 }),
      ]);
      return own + shared;
    }
  }
  if (f.visibleTo === undefined && onlyCounterKeys(f)) return countByCounters(db, f);
  return repo.countExact(db, f);
}

async function countByCounters(db: Db, f: repo.OrderFilter): Promise<number> {
  const firstWholeDay = f.start === undefined ? undefined : Math.ceil(f.start / DAY_MS) * DAY_MS;
  const endOfWholeDays = f.end === undefined ? undefined : Math.floor((f.end + 1) / DAY_MS) * DAY_MS;
  if (firstWholeDay !== undefined && endOfWholeDays !== undefined && firstWholeDay >= endOfWholeDays) return repo.countExact(db, f);
  // Whole days from the counters, the cut days at either end counted exactly: one round trip.
  const parts = await Promise.all([
    repo.sumDaily(db, { result: f.result, ifPublic: f.ifPublic, fromDay: firstWholeDay, toDay: endOfWholeDays }),
    f.start !== undefined && firstWholeDay !== undefined && f.start < firstWholeDay
      ? repo.countExact(db, { ...f, end: firstWholeDay - 1 })
      : 0,
    f.end !== undefined && endOfWholeDays !== undefined && f.end >= endOfWholeDays
      ? repo.countExact(db, { ...f, start: endOfWholeDays })
      : 0,
  ]);
  return parts.reduce((a, b) => a + b, 0);
}

export async function listOrders(db: Db, query: OrderListQuery, op: Operator): Promise<{ list: OrderItem[]; total: number }> {
  const f = toOrderFilter(query, op);
  if (f === null) return { list: [], total: 0 };
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 20;
  const [rows, total] = await Promise.all([
    repo.listPage(db, f, toSort(query), (page - 1) * pageSize, pageSize).execute(),
    countOrders(db, f),
  ]);
  return { list: rows.map((r) => toOrderItem(r, op)), total };
}

/** An order the operator may see, or 404 (a shop never learns that a private order exists). */
export async function visibleOrder(db: Db, id: number, op: Operator): Promise<repo.OrderWithNamesRow> {
  const row = await repo.findById(db, id);
  if (row === undefined || (!seesAll(op) && row.userId !== op.id && row.ifPublic !== 1)) throw new AppError(404, 'order.notFound', { id });
  return row;
}

export async function orderDetail(db: Db, id: number, op: Operator): Promise<OrderItem> {
  return toOrderItem(await visibleOrder(db, id, op), op);
}

/** How many orders name a user, as client or inspector (a user with any is never deleted). */
export const countOrdersOf = (db: Db, userId: number): Promise<number> => repo.countOrdersOf(db, userId);

export async function orderPrices(db: Db, userId: number): Promise<OrderPrices> {
  const [party] = await repo.findParties(db, [userId]);
  if (party === undefined) throw new FieldAppError(404, 'userId', 'order.clientMissing', { id: userId });
  if (party.isAdmin === 1) throw new FieldAppError(400, 'userId', 'order.clientAdmin', { username: party.username });
  return {
    userId,
    prices: { '0': priceFor(party, 0), '1': priceFor(party, 1), '2': priceFor(party, 2), '3': priceFor(party, 3) },
    ifPublic: party.ifPublic === 1 ? 1 : 0,
  };
}

/** Enabled values of the order dictionaries. */
async function loadDictSets(db: Db): Promise<{ games: Set<string>; results: Set<string> }> {
  const [games, results] = await Promise.all([enabledEntriesOf(db, ORDER_DICTS.game), enabledEntriesOf(db, ORDER_DICTS.result)]);
  return { games: new Set(games.map((d) => d.value)), results: new Set(results.map((d) => d.value)) };
}

async function contextFor(db: Db, op: Operator, input: OrderInput, existing?: OrderRow): Promise<CheckContext> {
  const [dicts, parties] = await Promise.all([loadDictSets(db), repo.findParties(db, [...new Set([input.userId, input.inspectorId])])]);
  return { op, now: nowMs(), ...dicts, parties: new Map(parties.map((p) => [p.id, p])), existing };
}

const fromBody = (body: OrderCreateBody): OrderInput => ({ ...body, installationAt: Date.parse(body.installationTime) });

function throwFirst(issues: Issue[]): never {
  const first = issues[0];
  if (first === undefined) throw new AppError(400, 'errors.badRequest');
  throw new FieldAppError(
    first.key === 'order.clientMissing' || first.key === 'order.inspectorMissing' ? 404 : 400,
    first.field,
    first.key,
    first.params,
  );
}

// ── writes: order, counters, ledger and messages in one transaction ──

/** What the message box needs of an order (messages.service OrderFacts). */
const factsOf = (o: OrderValues & { id: number | string; code: string }): messages.OrderFacts => ({
  id: Number(o.id),
  code: o.code,
  userId: o.userId,
  inspectorId: o.inspectorId,
  result: o.result,
  amount: Number(o.amount),
  gameName: o.gameName,
  objWechat: o.objWechat,
});

/** An order's key in the counters (orders.repository.ts bumpCounters), with its amount. */
const countOf = (
  o: { result: number; ifPublic: number; gameName: string; userId: number; amount: number | string },
  createdAt: number,
): Omit<repo.OrderCount, 'n'> => ({
  createdAt,
  result: o.result,
  ifPublic: o.ifPublic,
  gameName: o.gameName,
  userId: o.userId,
  amount: Number(o.amount),
});

const chargeOf = (values: { userId: number; amount: number | string }) => ({ userId: values.userId, amount: -Number(values.amount) });

export async function createOrder(db: Db, body: OrderCreateBody, op: Operator): Promise<OrderItem> {
  return writeTransaction(db, (trx) => recordOrder(trx, body, op));
}

/**
 * createOrder's work inside the caller's write transaction (an idempotent create runs it with
 * its key, decision 0109): the order, its counters, its charge and its messages; answers the
 * order as the operator sees it.
 */
export async function recordOrder(trx: Db, body: OrderCreateBody, op: Operator): Promise<OrderItem> {
  const input = fromBody(body);
  const { issues, values } = checkOrder(input, await contextFor(trx, op, input));
  if (values === null) throwFirst(issues);
  const now = nowMs();
  const { id: orderId, code } = await repo.insertOrder(
    trx,
    { ...values, createdBy: op.id, createdAt: now, updatedAt: now },
    newVerificationCode,
  );
  await repo.bumpCounters(trx, [{ ...countOf(values, now), n: 1 }]);
  if (values.amount !== 0) {
    await ledger.post(trx, { ...chargeOf(values), kind: 'charge', orderId, remark: ledger.orderRemark.charge(code) }, op, now);
  }
  await messages.orderRecorded(trx, factsOf({ ...values, id: orderId, code }), now);
  return orderDetail(trx, orderId, op);
}

/** An order the operator may change: inspectors only their own (docs/product.md "People and what each may do"). */
async function editable(db: Db, id: number, op: Operator): Promise<OrderRow> {
  const row = await repo.findRowForUpdate(db, id);
  if (row === undefined || (!seesAll(op) && row.userId !== op.id && row.ifPublic !== 1)) throw new AppError(404, 'order.notFound', { id });
  if (!editsAny(op) && row.inspectorId !== op.id) throw new AppError(403, 'order.notYours', { code: row.code });
  return row;
}

/** The parameters of an order's "recorded" log line (decision 0097): codes and values, told when read. */
export const createdLogParams = (item: OrderItem) => ({
  code: item.code,
  id: item.id,
  wechat: item.objWechat,
  game: item.gameName,
  result: item.result,
  client: item.userId ?? '',
  amountFen: item.amount ?? 0,
});

export async function updateOrder(db: Db, body: OrderUpdateBody, op: Operator): Promise<{ item: OrderItem; changes: LogPart[] }> {
  const changes: LogPart[] = [];
  await writeTransaction(db, async (trx) => {
    const existing = await editable(trx, body.id, op);
    const input = fromBody(body);
    const { issues, values } = checkOrder(input, await contextFor(trx, op, input, existing));
    if (values === null) throwFirst(issues);
    const now = nowMs();
    await repo.updateOrder(trx, existing.id, { ...values, updatedAt: now });
    const oldAmount = Number(existing.amount);
    // Every counter key an edit can move: result, public flag, amount, game and client shop.
    const createdAt = Number(existing.createdAt);
    await repo.bumpCounters(trx, [
      { ...countOf(existing, createdAt), n: -1, amount: -oldAmount },
      { ...countOf(values, createdAt), n: 1 },
    ]);
    if (existing.userId !== values.userId) {
      // Another client: the old shop gets its money back, the new one is charged.
      if (oldAmount !== 0)
        await ledger.post(
          trx,
          {
            userId: existing.userId,
            kind: 'reversal',
            amount: oldAmount,
            orderId: existing.id,
            remark: ledger.orderRemark.clientChanged(existing.code),
          },
          op,
          now,
        );
      if (values.amount !== 0)
        await ledger.post(
          trx,
          { ...chargeOf(values), kind: 'charge', orderId: existing.id, remark: ledger.orderRemark.charge(existing.code) },
          op,
          now,
        );
      changes.push({ key: 'log.text.part.client', params: { from: existing.userId, to: values.userId } });
    } else if (oldAmount !== values.amount) {
      await ledger.post(
        trx,
        {
          userId: values.userId,
          kind: 'adjust',
          amount: oldAmount - values.amount,
          orderId: existing.id,
          remark: ledger.orderRemark.amount(existing.code, formatMoney(oldAmount), formatMoney(values.amount)),
        },
        op,
        now,
      );
    }
    await messages.orderChanged(trx, factsOf(existing), factsOf({ ...values, id: existing.id, code: existing.code }), now);
    if (existing.result !== values.result)
      changes.push({ key: 'log.text.part.result', params: { resultFrom: existing.result, resultTo: values.result } });
    if (oldAmount !== values.amount) changes.push({ key: 'log.text.part.amount', params: { fromFen: oldAmount, toFen: values.amount } });
  });
  return { item: await orderDetail(db, body.id, op), changes };
}

/** Deletes orders and reverses their charges; all or nothing. */
export async function deleteOrders(db: Db, ids: readonly number[], op: Operator): Promise<string[]> {
  const unique = [...new Set(ids)];
  return writeTransaction(db, async (trx) => {
    const rows = await repo.findRowsForUpdate(trx, unique);
    const found = new Set(rows.map((r) => Number(r.id)));
    const missing = unique.find((id) => !found.has(id));
    if (missing !== undefined) throw new AppError(404, 'order.notFound', { id: missing });
    const now = nowMs();
    await repo.deleteOrders(trx, unique);
    await repo.bumpCounters(
      trx,
      rows.map((r) => ({ ...countOf(r, Number(r.createdAt)), n: -1, amount: -Number(r.amount) })),
    );
    await ledger.postMany(
      trx,
      rows.map((r) => ({
        userId: r.userId,
        kind: 'reversal' as const,
        amount: Number(r.amount),
        orderId: Number(r.id),
        remark: ledger.orderRemark.deleted(r.code),
      })),
      op,
      now,
    );
    await messages.ordersDeleted(trx, unique, now);
    return rows.map((r) => r.code);
  });
}

/** An imported order as written: its values, its code and its id. */
export type InsertedOrder = OrderValues & { id: number; code: string; createdBy: number; createdAt: number; updatedAt: number };

/**
 * Inserts checked orders (an import) inside the caller's write transaction, each with a fresh
 * code: the rare one already taken gets another on the next round. Counters and charges
 * follow with recordInserted once every batch is in.
 */
export async function insertFresh(trx: Db, list: readonly OrderValues[], op: Operator, now = nowMs()): Promise<InsertedOrder[]> {
  const inserted: InsertedOrder[] = [];
  const drawn = new Set<string>(); // never the same code twice in one import
  let pending: readonly OrderValues[] = list;
  while (pending.length > 0) {
    const batch = pending.map((values) => {
      let code = newVerificationCode();
      while (drawn.has(code)) code = newVerificationCode();
      drawn.add(code);
      return { ...values, code, createdBy: op.id, createdAt: now, updatedAt: now };
    });
    const written = await repo.insertOrdersWithFreshCodes(trx, batch);
    const next: OrderValues[] = [];
    for (const row of batch) {
      const id = written.get(row.code);
      if (id === undefined) next.push(row);
      else inserted.push({ ...row, id });
    }
    pending = next;
  }
  return inserted;
}

/** The per-day counters and the ledger charges of inserted orders, in the same transaction. */
export async function recordInserted(trx: Db, rows: readonly InsertedOrder[], op: Operator, now = nowMs()): Promise<void> {
  if (rows.length === 0) return;
  await repo.bumpCounters(
    trx,
    rows.map((r) => ({ ...countOf(r, r.createdAt), n: 1 })),
  );
  await ledger.postMany(
    trx,
    rows.map((r) => ({ ...chargeOf(r), kind: 'charge' as const, orderId: r.id, remark: ledger.orderRemark.charge(r.code) })),
    op,
    now,
  );
  await messages.ordersImported(trx, rows.map(factsOf), now);
}
