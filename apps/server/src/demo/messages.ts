/**
 * The demo's message boxes, from the business just written: each shop's recent
 * orders and recharges as messages (the older ones read), the recent suspicious orders as open
 * todos for the inspectors who recorded them, and, through the reminder job's own code, the
 * subscriptions ending within 7 days or just ended (a message to the shop, a renewal todo to
 * whoever may renew). Pure but for the write; deterministic from the plan.
 */
import { DAY_MS, HOUR_MS } from '../lib/time.ts';
import type { Db } from '../db/index.ts';
import {
  orderMessage,
  rechargeMessage,
  suspiciousTodo,
  writeMessages,
  writeReminders,
  type MessageDraft,
  type OrderFacts,
} from '../modules/messages/messages.service.ts';

/** Orders of the last days are messages to their shops; a recharge of the last month too. */
const ORDER_MESSAGE_DAYS = 3;
const RECHARGE_MESSAGE_DAYS = 30;
/** Suspicious orders of the last two weeks wait to be re-checked. */
const SUSPICIOUS_TODO_DAYS = 14;
const SUSPICIOUS = 3;

export interface DemoMessageInput {
  now: number;
  orders: readonly (OrderFacts & { createdAt: number })[];
  recharges: readonly { userId: number; amount: number; balanceAfter: number; at: number }[];
}

export function demoMessageDrafts({ now, orders, recharges }: DemoMessageInput): MessageDraft[] {
  const drafts: MessageDraft[] = [];
  // Read an hour or two after it came, unless it came within the last day.
  const readLater = (at: number, within: number) => (now - at > within ? { readAt: at + HOUR_MS + (at % HOUR_MS) } : {});
  for (const o of orders) {
    if (now - o.createdAt <= ORDER_MESSAGE_DAYS * DAY_MS)
      drafts.push({ ...orderMessage(o), createdAt: o.createdAt, ...readLater(o.createdAt, DAY_MS) });
    if (o.result === SUSPICIOUS && now - o.createdAt <= SUSPICIOUS_TODO_DAYS * DAY_MS)
      drafts.push({ ...suspiciousTodo(o), createdAt: o.createdAt });
  }
  for (const r of recharges)
    if (now - r.at <= RECHARGE_MESSAGE_DAYS * DAY_MS)
      drafts.push({
        ...rechargeMessage({ userId: r.userId, amount: r.amount, balance: r.balanceAfter }),
        createdAt: r.at,
        ...readLater(r.at, 2 * DAY_MS),
      });
  return drafts.sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
}

/** Writes the demo's messages inside the demo's transaction; answers how many. */
export async function writeDemoMessages(trx: Db, input: DemoMessageInput): Promise<number> {
  const written = await writeMessages(trx, demoMessageDrafts(input), input.now);
  return written + (await writeReminders(trx, input.now));
}
