import type { LedgerEntry, LedgerKind, OrderLedgerEntry, LedgerPage, LedgerQuery, RechargeBody, RechargeResult } from '@clearplay/contract';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Db } from '../../db/index.ts';
import type { LedgerEntryRow } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { t, type Locale } from '../../lib/messages.ts';
import { nowMs, toIso } from '../../lib/time.ts';
import type { Operator } from '../../http/route-context.ts';
import { recharged } from '../messages/messages.service.ts';
import * as repo from './ledger.repository.ts';

/**
 * A shop's ledger (docs/product.md "Money"): recharges recorded by staff, a charge for each order,
 * adjustments when an order's amount changes, reversals when an order is deleted. The
 * balance on the user row is the sum of the ledger: it changes only here, together with an
 * entry, inside the caller's transaction.
 */

/**
 * The remarks the server writes on an order's entries. They are stored in one form (the
 * order's code, then what happened; the code stays readable after the order is deleted) and
 * told in the reader's language when the ledger is read (remarkIn). A remark staff type on a
 * recharge is shown as typed.
 */
const CLIENT_CHANGED = 'client changed';
const DELETED = 'deleted';
export const orderRemark = {
  charge: (code: string) => `order ${code}`,
  clientChanged: (code: string) => `order ${code}: ${CLIENT_CHANGED}`,
  deleted: (code: string) => `order ${code}: ${DELETED}`,
  /** `from` and `to` as written (¥10.00). */
  amount: (code: string, from: string, to: string) => `order ${code}: ${from} → ${to}`,
};
const ORDER_REMARK = new RegExp(`^order (\\S+)(?:: (${CLIENT_CHANGED}|${DELETED}|(\\S+) → (\\S+)))?$`);

/** An entry's remark in `locale`: the server's own remarks on order entries translated, any other as stored. */
export function remarkIn(locale: Locale, row: Pick<LedgerEntryRow, 'orderId' | 'remark'>): string {
  const match = row.orderId === null ? null : ORDER_REMARK.exec(row.remark);
  if (match === null) return row.remark;
  const [, code = '', event, from = '', to = ''] = match;
  if (event === undefined) return t(locale, 'ledger.remark.charge', { code });
  if (event === CLIENT_CHANGED) return t(locale, 'ledger.remark.clientChanged', { code });
  if (event === DELETED) return t(locale, 'ledger.remark.deleted', { code });
  return t(locale, 'ledger.remark.amount', { code, from, to });
}

export const toLedgerEntry = (row: LedgerEntryRow): LedgerEntry => ({
  id: Number(row.id),
  userId: row.userId,
  kind: row.kind,
  amount: Number(row.amount),
  balanceAfter: Number(row.balanceAfter),
  orderId: row.orderId === null ? null : Number(row.orderId),
  remark: row.remark,
  operator: row.operator,
  createdTime: toIso(Number(row.createdAt)),
});

export interface Posting {
  userId: number;
  kind: LedgerKind;
  /** Signed fen: money in is positive, a charge negative. */
  amount: number;
  orderId?: number | null;
  remark?: string;
}

/** The ledger row of a posting, with the balance it leaves. */
const entryRow = (posting: Posting, balanceAfter: number, operator: Operator, now: number) => ({
  userId: posting.userId,
  kind: posting.kind,
  amount: posting.amount,
  balanceAfter,
  orderId: posting.orderId ?? null,
  remark: posting.remark ?? '',
  operator: operator.username,
  operatorId: operator.id,
  createdAt: now,
});

/** Posts one entry and moves the balance with it. Must run inside a write transaction. */
export async function post(trx: Db, posting: Posting, operator: Operator, now = nowMs()): Promise<LedgerEntry> {
  const balances = await repo.addToBalances(trx, new Map([[posting.userId, posting.amount]]));
  const row = entryRow(posting, balances.get(posting.userId) ?? 0, operator, now);
  const id = await repo.insertEntry(trx, row);
  return toLedgerEntry({ ...row, id });
}

/**
 * Posts many entries (an import, a batch delete): balances moved by one statement per 500
 * users, entries carrying the running balance in order. Must run inside a write transaction.
 */
export async function postMany(trx: Db, postings: readonly Posting[], operator: Operator, now = nowMs()): Promise<void> {
  const byUser = new Map<number, Posting[]>();
  for (const p of postings) {
    if (p.amount === 0) continue;
    const list = byUser.get(p.userId);
    if (list) list.push(p);
    else byUser.set(p.userId, [p]);
  }
  const totals = new Map([...byUser].map(([userId, list]) => [userId, list.reduce((sum, p) => sum + p.amount, 0)]));
  const balances = await repo.addToBalances(trx, totals);
  const rows = [];
  for (const [userId, list] of byUser) {
    let running = (balances.get(userId) ?? 0) - (totals.get(userId) ?? 0);
    for (const p of list) {
      running += p.amount;
      rows.push(entryRow(p, running, operator, now));
    }
  }
  await repo.insertEntries(trx, rows);
}

async function account(db: Db, userId: number) {
  const user = await repo.findAccount(db, userId);
  if (user === undefined) throw new AppError(404, 'user.notFound', { id: userId });
  return user;
}

export async function recharge(db: Db, body: RechargeBody, operator: Operator): Promise<RechargeResult & { username: string }> {
  return writeTransaction(db, (trx) => rechargeIn(trx, body, operator));
}

/** recharge's work inside the caller's write transaction (an idempotent recharge runs it with its key, decision 0109). */
export async function rechargeIn(trx: Db, body: RechargeBody, operator: Operator): Promise<RechargeResult & { username: string }> {
  const user = await account(trx, body.userId);
  if (user.isAdmin === 1) throw new AppError(400, 'ledger.adminAccount', { username: user.username });
  const entry = await post(
    trx,
    { userId: body.userId, kind: 'recharge', amount: body.amount, remark: body.remark?.trim() ?? '' },
    operator,
  );
  await recharged(trx, { userId: body.userId, amount: body.amount, balance: entry.balanceAfter });
  return { entry, balance: entry.balanceAfter, username: user.username };
}

/** How many ledger entries a user has (a user with any is never deleted). */
export const countEntriesOf = (db: Db, userId: number): Promise<number> => repo.countEntries(db, userId);

export async function ledgerPage(db: Db, query: LedgerQuery, locale: Locale): Promise<LedgerPage> {
  const user = await account(db, query.userId);
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 20;
  const [rows, total] = await Promise.all([
    repo.entriesPage(db, query.userId, (page - 1) * pageSize, pageSize),
    repo.countEntries(db, query.userId),
  ]);
  return { list: rows.map((row) => ({ ...toLedgerEntry(row), remark: remarkIn(locale, row) })), total, balance: Number(user.balance) };
}

/**
 * An order's ledger entries, oldest first, remarks in `locale` (the order profile page,
 * decision 0065). `shows` picks the entries the reader may see and whether the balance after
 * an entry is given; the caller decides both from who is reading.
 */
export async function entriesOfOrder(
  db: Db,
  orderId: number,
  locale: Locale,
  shows: (userId: number) => { entry: boolean; balance: boolean },
): Promise<OrderLedgerEntry[]> {
  const rows = await repo.entriesOfOrder(db, orderId);
  return rows.flatMap((row) => {
    const rule = shows(row.userId);
    if (!rule.entry) return [];
    const { orderId: _orderId, balanceAfter, ...entry } = toLedgerEntry(row);
    return [{ ...entry, balanceAfter: rule.balance ? balanceAfter : null, remark: remarkIn(locale, row) }];
  });
}
