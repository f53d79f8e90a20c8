import { Type, type Static } from 'typebox';
import { Flag, Id, Instant } from './common.ts';
import { OrderResult } from './orders.ts';

/**
 * Target history: a target's earlier records under its chat ID and the records of
 * the same machine under other chat IDs, as the caller may see them (the order list's
 * visibility rules), with a summary and the "changed MAC" proposal. Decision 0059.
 */

/** GET /admin/order/history: a chat ID and/or a MAC (any accepted spelling); `orderId` makes it "before this order". */
export const OrderHistoryQuery = Type.Object(
  {
    objWechat: Type.Optional(Type.String({ maxLength: 64 })),
    mac: Type.Optional(Type.String({ maxLength: 32 })),
    /** History as of this order: only records created before it, the order itself left out; chat ID and MAC default to its own. */
    orderId: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type OrderHistoryQuery = Static<typeof OrderHistoryQuery>;

/** One earlier record. `userName` (the client shop) and `inspectorName` are for staff only (null for a shop). */
export const HistoryRecord = Type.Object({
  id: Type.Integer(),
  objWechat: Type.String(),
  createdTime: Instant,
  gameName: Type.String(),
  result: OrderResult,
  /** Normal form `AA-BB-CC-DD-EE-FF`. */
  mac: Type.String(),
  ifChangedMac: Flag,
  userName: Type.Union([Type.String(), Type.Null()]),
  inspectorName: Type.Union([Type.String(), Type.Null()]),
});
export type HistoryRecord = Static<typeof HistoryRecord>;

export const OrderHistory = Type.Object({
  /** The chat ID searched, trimmed (null: none given). */
  objWechat: Type.Union([Type.String(), Type.Null()]),
  /** The MAC searched, in its normal form (null: none given). */
  mac: Type.Union([Type.String(), Type.Null()]),
  /** Earlier records under this chat ID (case-insensitive), newest first, at most HISTORY_LIST_MAX. */
  sameTarget: Type.Array(HistoryRecord),
  /** Records of this machine under other chat IDs, newest first, at most HISTORY_LIST_MAX. */
  sameMachine: Type.Array(HistoryRecord),
  summary: Type.Object({
    /** Earlier records of this chat ID by result ('0'..'3'), every visible one (not only the listed). */
    byResult: Type.Object({ '0': Type.Integer(), '1': Type.Integer(), '2': Type.Integer(), '3': Type.Integer() }),
    /** The latest cheating or suspicious record of this chat ID. */
    latestFlagged: Type.Union([HistoryRecord, Type.Null()]),
    /** The MAC of the latest earlier record of this chat ID. */
    previousMac: Type.Union([Type.String(), Type.Null()]),
    /** Whether `mac` differs from previousMac (null: no MAC given or no earlier record). */
    macChanged: Type.Union([Type.Boolean(), Type.Null()]),
    /** Other chat IDs this machine was seen under, latest first (at most HISTORY_CHAT_IDS_MAX). */
    otherChatIds: Type.Array(Type.String()),
  }),
  /** The proposed "changed MAC" flag: 1 when the latest earlier record of this chat ID has another MAC (null: chat ID or MAC missing). */
  proposedChangedMac: Type.Union([Flag, Type.Null()]),
});
export type OrderHistory = Static<typeof OrderHistory>;
