/**
 * The Kysely view of the database. Columns are snake_case in SQL and camelCase here
 * (CamelCasePlugin converts). Instants are epoch milliseconds, money is integer fen,
 * booleans are 0/1.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface RolesTable {
  id: Generated<number>;
  name: string;
  description: string;
  /** English description (0015, decision 0080); null when none. */
  descriptionEn: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON array of permission strings. */
  permissions: string;
  isAdmin: number;
  createdAt: number;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  passwordHash: string;
  nickname: string;
  roleId: number;
  wechat: string;
  phone: string;
  avatar: string;
  ifPublic: number;
  /** 1 enabled, 0 disabled. */
  status: number;
  defaultPrice: number;
  defaultPriceCheat: number;
  defaultPriceSuspect: number;
  defaultPriceNotPass: number;
  serviceEndAt: number | null;
  /** Sum of the user's ledger_entries in fen (0004); changed only together with an entry. bigint: PostgreSQL returns a string. */
  balance: Generated<number>;
  loginAt: number | null;
  /** The language the user chose in their settings (0009): applied at sign-in; null = the browser's. */
  locale: Generated<string | null>;
  passwordChangedAt: number;
  createdAt: number;
  updatedAt: number;
  /** Two-step verification (0016, decision 0091): the authenticator's secret, encrypted; null = none. */
  totpSecret: Generated<string | null>;
  /** The secret of a set-up not yet confirmed with a code, encrypted. */
  totpPendingSecret: Generated<string | null>;
  totpEnabledAt: Generated<number | null>;
  /** The 30-second step of the last code accepted: no code of it or before works again. */
  totpLastStep: Generated<number | null>;
  /** 1: a demo account, never required to have a second factor. */
  totpExempt: Generated<number>;
}

export interface TotpRecoveryCodesTable {
  id: Generated<number>;
  userId: number;
  /** argon2id of the code as normalised (lower case, no dash). */
  codeHash: string;
  usedAt: number | null;
  createdAt: number;
}

export interface LoginTicketsTable {
  id: Generated<number>;
  /** sha256 hex of the ticket. */
  tokenHash: string;
  userId: number;
  step: 'required' | 'enrol';
  remember: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export type RevokeReason =
  'logout' | 'disabled' | 'password_reset' | 'deleted' | 'logged_out_elsewhere' | 'role_changed' | 'second_factor_reset';

export interface SessionsTable {
  id: Generated<number>;
  /** sha256 hex of the bearer token; the token itself is never stored. */
  tokenHash: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
  lastSeenAt: number;
  ip: string;
  userAgent: string;
  revokedAt: number | null;
  revokeReason: RevokeReason | null;
  /** Switch roles (0011, decision 0060): the role a super admin's session views the app as, or null. */
  viewRole: string | null;
  /** The shop account viewed as (view_role 'shop'), or null. */
  viewUserId: number | null;
}

export interface LoginRecordsTable {
  id: Generated<number>;
  username: string;
  userId: number | null;
  ip: string;
  userAgent: string;
  success: number;
  reason: string;
  createdAt: number;
}

export interface DictTypesTable {
  id: Generated<number>;
  code: string;
  name: string;
  status: number;
  remark: string;
  createdAt: number;
  /** English name; '' = none, readers fall back to name. */
  nameEn: Generated<string>;
}

export interface DictDataTable {
  id: Generated<number>;
  typeCode: string;
  label: string;
  value: string;
  sort: number;
  cssClass: string;
  listClass: string;
  isDefault: number;
  parentId: number | null;
  status: number;
  remark: string;
  createdAt: number;
  /** English label; '' = none, readers fall back to label. */
  labelEn: Generated<string>;
  /** English remark (a price's note, a link's description; migration 0018); '' = none, readers fall back to remark. */
  remarkEn: Generated<string>;
}

export interface PageViewsTable {
  id: Generated<number>;
  userId: number | null;
  path: string;
  userAgent: string;
  referrer: string;
  ip: string;
  createdAt: number;
}

export interface ClientEventsTable {
  id: Generated<number>;
  userId: number | null;
  event: string;
  /** JSON text as the client sent it (bounded). */
  data: string;
  clientTime: number;
  createdAt: number;
}

export type SubscriptionAction = 'subscribe' | 'renew' | 'cancel';

export interface SubscriptionsTable {
  id: Generated<number>;
  userId: number;
  action: SubscriptionAction;
  type: 'monthly' | 'yearly' | 'custom' | null;
  durationDays: number | null;
  startAt: number;
  endAt: number;
  /** Username of the staff member who made the change. */
  operator: string;
  operatorId: number | null;
  remark: string;
  createdAt: number;
}

export interface OperationLogsTable {
  id: Generated<number>;
  module: string;
  action: string;
  content: string;
  operator: string;
  operatorId: number | null;
  /** 1 success, 0 failed. */
  status: number;
  ip: string;
  method: string;
  path: string;
  durationMs: number;
  errorMsg: string;
  userAgent: string;
  /** Request JSON, secrets masked, cut at 4 KB. */
  payload: string;
  /** What the call did, as JSON the route wrote (an import's counts); null when it wrote none (migration 0016). */
  details: string | null;
  /** The line's event key (a `log.text.*` catalogue key), told in the reader's language; null for rows written before migration 0018. */
  event: Generated<string | null>;
  /** The event's parameters as JSON (codes and values, never words); null with `event`. */
  params: Generated<string | null>;
  createdAt: number;
}

/** Per-UTC-day counts of operation_logs by (module, action, status): the list's total. */
export interface OperationLogDailyTable {
  module: string;
  action: string;
  status: number;
  day: number;
  n: number;
}

/** Users per (role, status), kept by triggers (SQLite, PostgreSQL; absent on MySQL): the user list's total. */
export interface UserCountsTable {
  roleId: number;
  status: number;
  n: number;
}

export interface OrdersTable {
  id: Generated<number>;
  code: string;
  objWechat: string;
  objWechatName: string;
  gameName: string;
  mac: string;
  installationAt: number;
  result: number;
  userId: number;
  objClientName: string;
  inspectorId: number;
  amount: number;
  ifPublic: number;
  ifChangedMac: number;
  description: string;
  certImages: string;
  proofImages: string;
  personCertImages: string;
  createdBy: number;
  createdAt: number;
  updatedAt: number;
}

/** Orders per (UTC day, result, if_public), written with each order: the list's total. */
export interface OrderDailyTable {
  day: number;
  result: number;
  ifPublic: number;
  n: number;
  amount: number;
}

/** Orders per (UTC hour start, result, public flag) (0006). */
export interface OrderHourlyTable {
  hour: number;
  result: number;
  ifPublic: number;
  n: number;
  amount: number;
}

/** Orders per (Asia/Shanghai day start, game, result) (0006). */
export interface OrderGameDailyTable {
  day: number;
  gameName: string;
  result: number;
  n: number;
  amount: number;
}

/** Orders per (Asia/Shanghai day start, client shop, result) (0006). */
export interface OrderUserDailyTable {
  day: number;
  userId: number;
  result: number;
  n: number;
  amount: number;
}

export interface AnnouncementsTable {
  id: Generated<number>;
  title: string;
  type: string;
  /** Sanitized HTML. */
  content: string;
  pinned: number;
  publishedAt: number;
  authorId: number | null;
  authorName: string;
  createdAt: number;
  updatedAt: number;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  userId: number;
  kind: 'recharge' | 'charge' | 'adjust' | 'reversal';
  amount: number;
  balanceAfter: number;
  orderId: number | null;
  remark: string;
  operator: string;
  operatorId: number | null;
  createdAt: number;
}

/** One row per periodic job (0005): who holds it and until when (also when it is next due). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expiresAt: number;
}

/** Visit statistics per Asia/Shanghai day (0007): page views and unique visitors. */
export interface VisitDailyTable {
  day: number;
  pv: number;
  uv: number;
}

/** One row per visitor and Shanghai day (0007); its first insert adds one to visit_daily.uv. */
export interface VisitorDailyTable {
  day: number;
  visitor: string;
}

export interface PageViewDailyTable {
  day: number;
  path: string;
  n: number;
}

export interface ReferrerDailyTable {
  day: number;
  referrer: string;
  n: number;
}

export interface EventDailyTable {
  day: number;
  event: string;
  n: number;
}

export type MessageKind = 'message' | 'notice' | 'todo';

/** The message box (0009): one row per recipient and event; the text is rendered from event + params in the reader's language. */
export interface MessagesTable {
  id: Generated<number>;
  userId: number;
  kind: MessageKind;
  event: string;
  /** JSON object of the event's parameters. */
  params: string;
  targetType: string | null;
  /** bigint: PostgreSQL returns a string. */
  targetId: number | null;
  isRead: Generated<number>;
  readAt: number | null;
  doneAt: number | null;
  dedupeKey: string | null;
  createdAt: number;
}

/**
 * Rate limits shared by every process (0014, decision 0074): the window in progress of one
 * limited route (bucket) and client.
 */
export interface RateLimitsTable {
  bucket: string;
  clientKey: string;
  /** When the window ends, epoch ms. */
  resetAt: number;
  hits: number;
}

/**
 * Idempotency keys (0019, decision 0109): the answer of a guarded create, kept 24 h under the
 * key its caller sent, so the same request sent again is answered again instead of recorded twice.
 */
export interface IdempotencyKeysTable {
  userId: number;
  /** The guarded call ('order.create', 'ledger.recharge'). */
  scope: string;
  /** The client's Idempotency-Key. */
  idemKey: string;
  /** SHA-256 (hex) of the request body. */
  fingerprint: string;
  /** The answer's status and its envelope's data (JSON); written with the write, in its transaction. */
  status: number | null;
  answer: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface Database {
  roles: RolesTable;
  users: UsersTable;
  sessions: SessionsTable;
  totpRecoveryCodes: TotpRecoveryCodesTable;
  loginTickets: LoginTicketsTable;
  loginRecords: LoginRecordsTable;
  dictTypes: DictTypesTable;
  dictData: DictDataTable;
  pageViews: PageViewsTable;
  clientEvents: ClientEventsTable;
  subscriptions: SubscriptionsTable;
  operationLogs: OperationLogsTable;
  operationLogDaily: OperationLogDailyTable;
  userCounts: UserCountsTable;
  orders: OrdersTable;
  orderDaily: OrderDailyTable;
  ledgerEntries: LedgerEntriesTable;
  jobLeases: JobLeasesTable;
  orderHourly: OrderHourlyTable;
  orderGameDaily: OrderGameDailyTable;
  orderUserDaily: OrderUserDailyTable;
  announcements: AnnouncementsTable;
  visitDaily: VisitDailyTable;
  visitorDaily: VisitorDailyTable;
  pageViewDaily: PageViewDailyTable;
  referrerDaily: ReferrerDailyTable;
  eventDaily: EventDailyTable;
  messages: MessagesTable;
  rateLimits: RateLimitsTable;
  idempotencyKeys: IdempotencyKeysTable;
}

export type RoleRow = Selectable<RolesTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type DictDataRow = Selectable<DictDataTable>;
export type DictTypeRow = Selectable<DictTypesTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type OperationLogRow = Selectable<OperationLogsTable>;
export type NewOperationLog = Insertable<OperationLogsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type LedgerEntryRow = Selectable<LedgerEntriesTable>;
export type MessageRow = Selectable<MessagesTable>;
