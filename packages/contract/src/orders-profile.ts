import { Type, type Static } from 'typebox';
import { Instant } from './common.ts';
import { LedgerKind, OrderItem } from './orders.ts';

/**
 * One ledger entry of an order (decision 0065): its charge, the adjustments when its
 * amount or client changed, the reversal when it was deleted. `balanceAfter` is the shop's
 * balance after the entry, given only to who may read that shop's balance (user:ledger, or
 * the shop itself); null for anyone else who sees the order's amount (an inspector).
 */
export const OrderLedgerEntry = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  kind: LedgerKind,
  /** Signed fen: a charge is negative. */
  amount: Type.Integer(),
  balanceAfter: Type.Union([Type.Integer(), Type.Null()]),
  /** In the reader's language (the server's order remarks are translated). */
  remark: Type.String(),
  operator: Type.String(),
  createdTime: Instant,
});
export type OrderLedgerEntry = Static<typeof OrderLedgerEntry>;

/**
 * GET /admin/order/profile?id=: an order's profile page in one call: the order as
 * the detail call gives it, its verification URL (the same base as the ZIP summary's, decision
 * 0051) and its ledger entries, oldest first. `ledger` is null in the reduced public view
 * (another shop's public order: no amount, so no charge either).
 */
export const OrderProfile = Type.Object({
  order: OrderItem,
  verifyUrl: Type.String(),
  ledger: Type.Union([Type.Array(OrderLedgerEntry), Type.Null()]),
});
export type OrderProfile = Static<typeof OrderProfile>;
