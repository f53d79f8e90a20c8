import { Type, type Static } from 'typebox';
import { Fen, Flag, Id, Instant, TextFilter } from './common.ts';
import { ORDER_TEXT_MAX } from './constants/orders.ts';

/** Order result (dictionary `order_result`): 0 normal, 1 cheating, 2 failed (not pass), 3 suspicious. */
export const OrderResult = Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2), Type.Literal(3)]);
export type OrderResult = Static<typeof OrderResult>;

/** Comma-separated image URLs (the image uploader's value). */
export const ImageList = Type.String({ maxLength: 8000 });

/**
 * A detection order. `view` is 'public' when the reader sees another shop's
 * public order: the amount and the client shop are then null (docs/product.md "Visibility of orders").
 */
export const OrderItem = Type.Object({
  id: Type.Integer(),
  /** Short public verification code (docs/product.md "Orders": `/verify/:code`). */
  code: Type.String(),
  objWechat: Type.String(),
  objWechatName: Type.String(),
  gameName: Type.String(),
  /** Normal form `AA-BB-CC-DD-EE-FF`. */
  mac: Type.String(),
  installationTime: Instant,
  result: OrderResult,
  userId: Type.Union([Type.Integer(), Type.Null()]),
  /** The client shop's nickname (username when it has none). */
  userName: Type.Union([Type.String(), Type.Null()]),
  objClientName: Type.String(),
  inspectorId: Type.Union([Type.Integer(), Type.Null()]),
  inspectorName: Type.Union([Type.String(), Type.Null()]),
  amount: Type.Union([Type.Integer(), Type.Null()]),
  ifPublic: Flag,
  ifChangedMac: Flag,
  description: Type.String(),
  certImages: Type.String(),
  proofImages: Type.String(),
  personCertImages: Type.String(),
  createdTime: Instant,
  updatedTime: Instant,
  view: Type.Union([Type.Literal('full'), Type.Literal('public')]),
  /** In the list: the chat ID has an earlier cheating record the caller may see. */
  repeatTarget: Type.Optional(Type.Boolean()),
});
export type OrderItem = Static<typeof OrderItem>;

export const OrderSortField = Type.Union([Type.Literal('createdTime'), Type.Literal('amount')]);
export const SortOrder = Type.Union([Type.Literal('ascend'), Type.Literal('descend')]);

/** Every filter of the order list and the export. Text filters are prefixes. */
const orderFilters = {
  objWechat: TextFilter,
  objWechatName: TextFilter,
  gameName: TextFilter,
  /** A MAC address or its beginning, in any of the accepted spellings. */
  mac: TextFilter,
  result: Type.Optional(OrderResult),
  /** Client shop. */
  userId: Type.Optional(Id),
  /** Target's shop (prefix). */
  objClientName: TextFilter,
  inspectorId: Type.Optional(Id),
  ifPublic: Type.Optional(Flag),
  ifChangedMac: Type.Optional(Flag),
  /** 1: only orders whose chat ID has an earlier cheating record the caller may see. */
  repeatOnly: Type.Optional(Flag),
  code: TextFilter,
  /** Order (created) time range, inclusive. */
  orderStartTime: Type.Optional(Instant),
  orderEndTime: Type.Optional(Instant),
  sortField: Type.Optional(OrderSortField),
  sortOrder: Type.Optional(SortOrder),
};

export const OrderListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
    ...orderFilters,
  },
  { additionalProperties: false },
);
export type OrderListQuery = Static<typeof OrderListQuery>;

export const OrderExportQuery = Type.Object(orderFilters, { additionalProperties: false });
export type OrderExportQuery = Static<typeof OrderExportQuery>;

const Required = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });

/** The fields a person enters (all required except the flags, description and images). */
const orderFields = {
  objWechat: Required(ORDER_TEXT_MAX.objWechat),
  objWechatName: Required(ORDER_TEXT_MAX.objWechatName),
  gameName: Required(ORDER_TEXT_MAX.gameName),
  /** Any of `AA-BB-CC-DD-EE-FF`, `aa:bb:cc:dd:ee:ff`, `aabbccddeeff`, `aabb.ccdd.eeff`; stored in the first form. */
  mac: Type.String({ minLength: 1, maxLength: 32 }),
  installationTime: Instant,
  result: OrderResult,
  userId: Id,
  objClientName: Required(ORDER_TEXT_MAX.objClientName),
  inspectorId: Id,
  /** Must equal the client's price for the result unless the caller holds order:amount:override. */
  amount: Fen,
  ifPublic: Type.Optional(Flag),
  ifChangedMac: Type.Optional(Flag),
  /** The "changed MAC" the target history proposed when the form was saved: a different ifChangedMac is logged as an override. */
  changedMacProposed: Type.Optional(Flag),
  description: Type.Optional(Type.String({ maxLength: ORDER_TEXT_MAX.description })),
  certImages: Type.Optional(ImageList),
  proofImages: Type.Optional(ImageList),
  personCertImages: Type.Optional(ImageList),
};

export const OrderCreateBody = Type.Object(orderFields, { additionalProperties: false });
export type OrderCreateBody = Static<typeof OrderCreateBody>;

export const OrderUpdateBody = Type.Object({ id: Id, ...orderFields }, { additionalProperties: false });
export type OrderUpdateBody = Static<typeof OrderUpdateBody>;

/** POST /admin/order/import?keepValid=: all-or-nothing unless keepValid. */
export const OrderImportQuery = Type.Object({ keepValid: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export type OrderImportQuery = Static<typeof OrderImportQuery>;

export const ImportRejectedRow = Type.Object({
  /** The row number as the spreadsheet shows it (the header is row 1). */
  row: Type.Integer(),
  reasons: Type.Array(Type.String()),
  /** The row's cells as read, by column header, so the report can be downloaded. */
  values: Type.Record(Type.String(), Type.String()),
});
export type ImportRejectedRow = Static<typeof ImportRejectedRow>;

export const OrderImportResult = Type.Object({
  /** Data rows read (the header not counted). */
  total: Type.Integer(),
  imported: Type.Integer(),
  rejected: Type.Array(ImportRejectedRow),
  keepValid: Type.Boolean(),
  /** Target history: valid rows with "changed MAC" on (given or proposed), and on a machine seen under another chat ID; absent when both are 0. */
  history: Type.Optional(Type.Object({ macChanged: Type.Integer(), knownMachine: Type.Integer() })),
});
export type OrderImportResult = Static<typeof OrderImportResult>;

// ── Shop balances (docs/product.md "Money") ──

export const LedgerKind = Type.Union([Type.Literal('recharge'), Type.Literal('charge'), Type.Literal('adjust'), Type.Literal('reversal')]);
export type LedgerKind = Static<typeof LedgerKind>;

/** POST /admin/user/recharge: staff record money received from a shop. */
export const RechargeBody = Type.Object(
  {
    userId: Id,
    amount: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
    remark: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type RechargeBody = Static<typeof RechargeBody>;

export const LedgerEntry = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  kind: LedgerKind,
  /** Signed fen: money in is positive, a charge is negative. */
  amount: Type.Integer(),
  /** The shop's balance after this entry. */
  balanceAfter: Type.Integer(),
  orderId: Type.Union([Type.Integer(), Type.Null()]),
  remark: Type.String(),
  operator: Type.String(),
  createdTime: Instant,
});
export type LedgerEntry = Static<typeof LedgerEntry>;

export const LedgerQuery = Type.Object(
  {
    userId: Id,
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
  },
  { additionalProperties: false },
);
export type LedgerQuery = Static<typeof LedgerQuery>;

export const LedgerPage = Type.Object({ list: Type.Array(LedgerEntry), total: Type.Integer(), balance: Type.Integer() });
export type LedgerPage = Static<typeof LedgerPage>;

export const RechargeResult = Type.Object({ entry: LedgerEntry, balance: Type.Integer() });
export type RechargeResult = Static<typeof RechargeResult>;

/** GET /admin/order/price?userId=: the client shop's price per result, so the form can fill the amount. */
export const OrderPriceQuery = Type.Object({ userId: Id }, { additionalProperties: false });
export type OrderPriceQuery = Static<typeof OrderPriceQuery>;
export const OrderPrices = Type.Object({
  userId: Type.Integer(),
  /** Fen per result: keys '0'..'3' (normal, cheating, failed, suspicious). */
  prices: Type.Object({ '0': Type.Integer(), '1': Type.Integer(), '2': Type.Integer(), '3': Type.Integer() }),
  /** The shop's "detection public" default for new orders. */
  ifPublic: Flag,
});
export type OrderPrices = Static<typeof OrderPrices>;

export const OrderDeleteResult = Type.Object({ deleted: Type.Integer() });
export type OrderDeleteResult = Static<typeof OrderDeleteResult>;
