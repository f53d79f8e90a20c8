import { Type, type Static } from 'typebox';
import { AnnouncementItem } from './announcements.ts';
import { Id, Instant } from './common.ts';
import { OrderItem, OrderResult } from './orders.ts';

const AnalysisBucketSchema = Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]);

/** A shop whose service ends within 7 days (expiring) or ended within the last 30 (expired). */
export const RenewalItem = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  nickname: Type.String(),
  serviceEndDate: Instant,
  state: Type.Union([Type.Literal('expiring'), Type.Literal('expired')]),
  balance: Type.Integer(),
});
export type RenewalItem = Static<typeof RenewalItem>;

/** Orders and their amount (fen). */
export const OrderTally = Type.Object({ count: Type.Integer(), amount: Type.Integer() });
export type OrderTally = Static<typeof OrderTally>;

export const DailyTally = Type.Object({
  /** The business day (Asia/Shanghai), YYYY-MM-DD. */
  date: Type.String(),
  count: Type.Integer(),
  amount: Type.Integer(),
});
export type DailyTally = Static<typeof DailyTally>;

export const ResultTally = Type.Object({ result: OrderResult, count: Type.Integer(), amount: Type.Integer() });
export type ResultTally = Static<typeof ResultTally>;

export const RecentVisit = Type.Object({ path: Type.String(), visitedAt: Instant });
export type RecentVisit = Static<typeof RecentVisit>;

export const QuickOperation = Type.Object({
  key: Type.Union([
    Type.Literal('order'),
    Type.Literal('user'),
    Type.Literal('role'),
    Type.Literal('dict'),
    Type.Literal('log'),
    Type.Literal('announcement'),
  ]),
  path: Type.String(),
});
export type QuickOperation = Static<typeof QuickOperation>;

/** GET /admin/workplace: every widget of the workplace in one answer (docs/product.md "The workplace"). */
export const WorkplaceData = Type.Object({
  /** Sum of the shops' balances, fen (a shop may owe: it can be negative). */
  balance: Type.Integer(),
  /** Suspicious orders waiting for a re-check: how many, and the newest few. */
  pending: Type.Object({ count: Type.Integer(), list: Type.Array(OrderItem) }),
  /** Shops to renew, soonest end first. */
  renewals: Type.Object({ count: Type.Integer(), list: Type.Array(RenewalItem) }),
  /** This business month so far and the whole previous one; change = (this − last) / last, null when last is 0. */
  month: Type.Object({
    start: Instant,
    current: OrderTally,
    previous: OrderTally,
    countChange: Type.Union([Type.Number(), Type.Null()]),
    amountChange: Type.Union([Type.Number(), Type.Null()]),
  }),
  latestOrders: Type.Array(OrderItem),
  /** Every order result with its orders (all time). */
  results: Type.Array(ResultTally),
  total: OrderTally,
  /** The last 30 business days, oldest first, today last. */
  daily: Type.Array(DailyTally),
  announcements: Type.Array(AnnouncementItem),
  recentlyVisited: Type.Array(RecentVisit),
  quickOperations: Type.Array(QuickOperation),
  timeZone: Type.String(),
  generatedAt: Instant,
});
export type WorkplaceData = Static<typeof WorkplaceData>;

/** GET /admin/analysis/orders: orders by game, result and shop over a range, in day / week / month buckets. */
export const OrderAnalysisQuery = Type.Object(
  {
    /** Business days (Asia/Shanghai), YYYY-MM-DD, both included. */
    from: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    to: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    bucket: Type.Optional(AnalysisBucketSchema),
  },
  { additionalProperties: false },
);
export type OrderAnalysisQuery = Static<typeof OrderAnalysisQuery>;

export const OrderAnalysis = Type.Object({
  from: Type.String(),
  to: Type.String(),
  bucket: AnalysisBucketSchema,
  /** Bucket starts (YYYY-MM-DD), oldest first, every bucket of the range even when empty. */
  buckets: Type.Array(Type.String()),
  total: OrderTally,
  byResult: Type.Array(Type.Object({ result: OrderResult, count: Type.Array(Type.Integer()), amount: Type.Array(Type.Integer()) })),
  byGame: Type.Array(Type.Object({ gameName: Type.String(), total: OrderTally, count: Type.Array(Type.Integer()) })),
  /** Shops by amount over the range, the top 20. */
  byShop: Type.Array(Type.Object({ userId: Id, name: Type.String(), total: OrderTally })),
});
export type OrderAnalysis = Static<typeof OrderAnalysis>;
