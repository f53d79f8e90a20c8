import {
  type Permission,
  type MessageItem,
  type MessageKind,
  type MessageListQuery,
  type MessagePage,
  type MessageReadResult,
  type MessageTarget,
  type UnreadCounts,
} from '@clearplay/contract';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Db } from '../../db/index.ts';
import type { MessageRow } from '../../db/schema.ts';
import { deleteInBatches } from '../../lib/batches.ts';
import { AppError } from '../../lib/errors.ts';
import { t, type Locale, type MessageKey } from '../../lib/messages.ts';
import { noLabels, parseParams, tellParams, type LabelOf } from '../../lib/told.ts';
import { dictLabels } from '../dicts/dicts.service.ts';
import { DAY_MS, nowMs, toIso, toIsoOrNull } from '../../lib/time.ts';
import * as repo from './messages.repository.ts';

/**
 * The message box (docs/product.md "Messages", decision 0052). Other modules call the event
 * functions below INSIDE their own write transaction (pass the trx), so a message exists
 * exactly when its event does. Rows store an event code and its parameters; the text is told
 * in the reader's language when the box is read (render), as ledger remarks are (0022).
 */

/** The result of an order as a message parameter (the detection results: docs/product.md "The business"). */
const SUSPICIOUS = 3;

/** A subscription ending within this long gets its reminder (the user list's "expiring"). */
export const REMINDER_AHEAD_MS = 7 * DAY_MS;
/** An ended subscription is reminded about for this long after its end (not years-old ends on a first run). */
export const REMINDER_AFTER_MS = 7 * DAY_MS;

type Params = Record<string, string | number>;

/** Who gets renewal todos: the staff who may renew (set subscriptions). */
const RENEWS: Permission = 'user:subscription';

/** The events, each with its kind and the catalogue keys of its title and text. */
const EVENTS = {
  'order.created': { title: 'message.order.created.title', content: 'message.order.created.content' },
  'order.imported': { title: 'message.order.imported.title', content: 'message.order.imported.content' },
  'password.reset': { title: 'message.password.reset.title', content: 'message.password.reset.content' },
  'balance.recharged': { title: 'message.balance.recharged.title', content: 'message.balance.recharged.content' },
  'subscription.expiring': { title: 'message.subscription.expiring.title', content: 'message.subscription.expiring.content' },
  'subscription.expired': { title: 'message.subscription.expired.title', content: 'message.subscription.expired.content' },
  'todo.suspicious': { title: 'message.todo.suspicious.title', content: 'message.todo.suspicious.content' },
  'todo.renewal': { title: 'message.todo.renewal.title', content: 'message.todo.renewal.content' },
  announcement: { title: 'message.announcement.title', content: 'message.announcement.content' },
} as const satisfies Record<string, { title: MessageKey; content: MessageKey }>;
export type MessageEvent = keyof typeof EVENTS;

/** Dates in messages are the business's calendar day (China time), as staff and shops read them. */
const DAY_FORMAT = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' });
export const dayText = (ms: number): string => DAY_FORMAT.format(new Date(ms));

/**
 * A stored row as the reader sees it, in the reader's language (decision 0097): money
 * formatted, a result or a game (stored as its dictionary value) told by its label in that
 * language. A row written before 0097 with a Chinese label in its parameters shows it as it is.
 */
export function render(locale: Locale, row: MessageRow, labelOf: LabelOf = noLabels): MessageItem {
  const event = EVENTS[row.event as MessageEvent] as (typeof EVENTS)[MessageEvent] | undefined;
  const params = tellParams(locale, parseParams(row.params), labelOf);
  const target: MessageTarget | null =
    row.targetType === null
      ? null
      : { type: row.targetType as MessageTarget['type'], id: row.targetId === null ? null : Number(row.targetId) };
  return {
    id: Number(row.id),
    type: row.kind,
    event: row.event,
    title: event === undefined ? row.event : t(locale, event.title, params),
    content: event === undefined ? '' : t(locale, event.content, params),
    target,
    read: row.isRead === 1,
    readTime: toIsoOrNull(row.readAt === null ? null : Number(row.readAt)),
    doneTime: toIsoOrNull(row.doneAt === null ? null : Number(row.doneAt)),
    createdTime: toIso(Number(row.createdAt)),
  };
}

/** A message to write: whom, which event with its parameters, what it opens, its dedupe key. */
export interface MessageDraft {
  userId: number;
  kind: MessageKind;
  event: MessageEvent;
  params: Params;
  target?: { type: MessageTarget['type']; id: number | null };
  dedupeKey?: string;
  /** When it happened (default: now); the demo writes a past business. */
  createdAt?: number;
  /** Read already, at this instant (the demo's older items). */
  readAt?: number;
}
type Draft = MessageDraft;

const toRow = (d: Draft, now: number): repo.NewMessage => ({
  userId: d.userId,
  kind: d.kind,
  event: d.event,
  params: JSON.stringify(d.params),
  targetType: d.target?.type ?? null,
  targetId: d.target?.id ?? null,
  isRead: d.readAt === undefined ? 0 : 1,
  readAt: d.readAt ?? null,
  doneAt: null,
  dedupeKey: d.dedupeKey ?? null,
  createdAt: d.createdAt ?? now,
});

const send = (trx: Db, drafts: readonly Draft[], now: number) =>
  repo.insertMessages(
    trx,
    drafts.map((d) => toRow(d, now)),
  );

/** Writes drafts inside the caller's transaction (the demo's past business); answers how many were new. */
export const writeMessages = (trx: Db, drafts: readonly MessageDraft[], now = nowMs()): Promise<number> => send(trx, drafts, now);

// ── events, called inside the caller's transaction ──

/** What the events need to know of an order. */
export interface OrderFacts {
  id: number;
  code: string;
  /** The client shop. */
  userId: number;
  inspectorId: number;
  result: number;
  amount: number;
  gameName: string;
  objWechat: string;
}

const suspiciousKey = (orderId: number) => `order:${orderId}:suspicious`;

export const suspiciousTodo = (o: OrderFacts): MessageDraft => ({
  userId: o.inspectorId,
  kind: 'todo',
  event: 'todo.suspicious',
  params: { code: o.code, wechat: o.objWechat, game: o.gameName },
  target: { type: 'order', id: o.id },
  dedupeKey: suspiciousKey(o.id),
});

/** A todo for the order's inspector: a new one, or the one closed earlier opened again. */
async function openSuspicious(trx: Db, o: OrderFacts, now: number): Promise<void> {
  const draft = suspiciousTodo(o);
  if (await repo.reopenTodo(trx, draft.userId, suspiciousKey(o.id), JSON.stringify(draft.params), now)) return;
  await send(trx, [draft], now);
}

export const orderMessage = (o: OrderFacts): MessageDraft => ({
  userId: o.userId,
  kind: 'message',
  event: 'order.created',
  params: { code: o.code, result: o.result, amountFen: o.amount, game: o.gameName },
  target: { type: 'order', id: o.id },
});

export const rechargeMessage = (r: { userId: number; amount: number; balance: number }): MessageDraft => ({
  userId: r.userId,
  kind: 'message',
  event: 'balance.recharged',
  params: { amountFen: r.amount, balanceFen: r.balance },
  target: { type: 'ledger', id: r.userId },
});

/** A new order recorded: a message to its shop; a suspicious one is also a todo for its inspector. */
export async function orderRecorded(trx: Db, o: OrderFacts, now = nowMs()): Promise<void> {
  await send(trx, [orderMessage(o)], now);
  if (o.result === SUSPICIOUS) await openSuspicious(trx, o, now);
}

/**
 * An import: ONE summary message per shop (how many of its orders were recorded), not one per
 * row, and a todo for each suspicious order's inspector (each is work to do).
 */
export async function ordersImported(trx: Db, orders: readonly OrderFacts[], now = nowMs()): Promise<void> {
  const perShop = new Map<number, number>();
  for (const o of orders) perShop.set(o.userId, (perShop.get(o.userId) ?? 0) + 1);
  const drafts: Draft[] = [...perShop].map(([userId, count]) => ({
    userId,
    kind: 'message',
    event: 'order.imported',
    params: { count },
  }));
  drafts.push(...orders.filter((o) => o.result === SUSPICIOUS).map(suspiciousTodo));
  await send(trx, drafts, now);
}

/**
 * An order edited: its suspicious todo closes when the result is no longer suspicious (the
 * re-check) or passes to another inspector; it opens when the order becomes suspicious.
 */
export async function orderChanged(trx: Db, before: OrderFacts, after: OrderFacts, now = nowMs()): Promise<void> {
  const was = before.result === SUSPICIOUS;
  const is = after.result === SUSPICIOUS;
  const otherInspector = before.inspectorId !== after.inspectorId;
  if (was && (!is || otherInspector)) await repo.closeTodos(trx, 'order', [after.id], now, is ? after.inspectorId : undefined);
  if (is && (!was || otherInspector)) await openSuspicious(trx, after, now);
}

/** Orders deleted: their todos are done (nothing is left to re-check). */
export async function ordersDeleted(trx: Db, orderIds: readonly number[], now = nowMs()): Promise<void> {
  await repo.closeTodos(trx, 'order', orderIds, now);
}

/** Staff set a new password for the user. */
export async function passwordReset(trx: Db, userId: number, operator: string, now = nowMs()): Promise<void> {
  await send(trx, [{ userId, kind: 'message', event: 'password.reset', params: { operator } }], now);
}

/** A recharge recorded on a shop's balance. */
export async function recharged(trx: Db, r: { userId: number; amount: number; balance: number }, now = nowMs()): Promise<void> {
  await send(trx, [rechargeMessage(r)], now);
}

/** A subscription renewed (or subscribed again): the staff's renewal todos for it are done. */
export async function subscriptionRenewed(trx: Db, userId: number, now = nowMs()): Promise<void> {
  await repo.closeTodos(trx, 'subscription', [userId], now);
}

/**
 * An announcement published: one notice per enabled user, in one INSERT … SELECT. Publishing
 * the same announcement again adds nothing (dedupe key). Answers how many were written.
 */
export async function notifyAll(trx: Db, a: { announcementId: number; title: string }, now = nowMs()): Promise<number> {
  return repo.insertForEnabledUsers(trx, {
    kind: 'notice',
    event: 'announcement',
    params: JSON.stringify({ title: a.title }),
    targetType: 'announcement',
    targetId: a.announcementId,
    dedupeKey: `announcement:${a.announcementId}`,
    createdAt: now,
  });
}

/** A deleted announcement's notices go with it, in the delete's transaction (read or not). */
export const announcementRemoved = (trx: Db, announcementId: number): Promise<number> =>
  repo.removeForTarget(trx, 'announcement', announcementId);

/**
 * The reminder job's turn: a shop whose service ends within 7 days (or ended within the last
 * 7) gets "ends soon" / "has ended", and every enabled user who may renew a renewal todo, each keyed
 * by the shop and its end instant, so no reminder is ever written twice (a renewal moves the
 * end, and the next end gets its own reminders). Answers how many rows were written.
 */
export const sendSubscriptionReminders = (db: Db, now = nowMs()): Promise<number> =>
  writeTransaction(db, (trx) => writeReminders(trx, now));

/** sendSubscriptionReminders inside the caller's transaction. */
export async function writeReminders(trx: Db, now = nowMs()): Promise<number> {
  const shops = await repo.endingBetween(trx, now - REMINDER_AFTER_MS, now + REMINDER_AHEAD_MS);
  if (shops.length === 0) return 0;
  const staff = await repo.enabledHolders(trx, RENEWS);
  const drafts: Draft[] = [];
  for (const shop of shops) {
    const end = Number(shop.serviceEndAt);
    const ended = end <= now;
    const date = dayText(end);
    const subscription = { type: 'subscription' as const, id: shop.id };
    drafts.push({
      userId: shop.id,
      kind: 'message',
      event: ended ? 'subscription.expired' : 'subscription.expiring',
      params: { date },
      target: subscription,
      dedupeKey: `subscription:${end}:${ended ? 'expired' : 'expiring'}`,
    });
    for (const s of staff)
      drafts.push({
        userId: s.id,
        kind: 'todo',
        event: 'todo.renewal',
        params: { shop: shop.nickname === '' ? shop.username : `${shop.nickname} (${shop.username})`, date },
        target: subscription,
        dedupeKey: `renewal:${shop.id}:${end}`,
      });
  }
  return send(trx, drafts, now);
}

// ── reading ──

export async function unreadCounts(db: Db, userId: number): Promise<UnreadCounts & { etag: string }> {
  const rows = await repo.unreadByKind(db, userId);
  const counts = { message: 0, notice: 0, todo: 0, total: 0 };
  const newest = { message: 0, notice: 0, todo: 0 };
  for (const r of rows) {
    counts[r.kind] = r.n;
    newest[r.kind] = r.newest;
    counts.total += r.n;
  }
  // Any new item, item read or todo closed changes a count or a newest id: the box's version.
  const etag = `W/"m${userId}-${counts.message}.${newest.message}-${counts.notice}.${newest.notice}-${counts.todo}.${newest.todo}"`;
  return { ...counts, etag };
}

const withoutEtag = ({ etag: _etag, ...counts }: UnreadCounts & { etag: string }): UnreadCounts => counts;

export async function listMessages(db: Db, userId: number, query: MessageListQuery, locale: Locale): Promise<MessagePage> {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 10;
  const read = query.read ?? 'all';
  const f: repo.MessageFilter = { userId, kind: query.type, isRead: read === 'all' ? undefined : read === 'read' ? 1 : 0 };
  const [rows, total, unread, labelOf] = await Promise.all([
    repo.listPage(db, f, (page - 1) * pageSize, pageSize),
    repo.countFiltered(db, f),
    unreadCounts(db, userId),
    dictLabels(db),
  ]);
  return { list: rows.map((row) => render(locale, row, labelOf)), total, unread: withoutEtag(unread) };
}

/** Marks the caller's own messages read. Any id that is not theirs refuses the whole call (404: its existence is not told). */
export async function markRead(db: Db, userId: number, ids: readonly number[]): Promise<MessageReadResult> {
  const unique = [...new Set(ids)];
  const marked = await writeTransaction(db, async (trx) => {
    const own = await repo.ownIds(trx, userId, unique);
    const foreign = unique.find((id) => !own.has(id));
    if (foreign !== undefined) throw new AppError(404, 'message.notYours', { id: foreign });
    return repo.markRead(trx, userId, unique, nowMs());
  });
  return { marked, unread: withoutEtag(await unreadCounts(db, userId)) };
}

/**
 * Removes, batch by batch, the read messages created before `before` (the retention job,
 * RETENTION_MESSAGE_DAYS; decisions 0062 and 0110): unread ones stay whatever their age, and so
 * does a todo whose work is not done even when it was read. Reading the box is unaffected: the
 * unread counts and the ETag count unread rows only. Answers how many went.
 */
export const removeOldReadMessages = (db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> =>
  deleteInBatches(() => repo.deleteOldReadMessages(db, before, batch), signal);
