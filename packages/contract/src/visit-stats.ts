import { Type, type Static } from 'typebox';
import { Instant } from './common.ts';

/**
 * Visit statistics and the monitor (decision 0044). Days and hours are Asia/Shanghai
 * (the business's time zone): `date` is its calendar date, `YYYY-MM-DD`.
 */
export const VisitDay = Type.Object({
  date: Type.String(),
  /** Page views. */
  pv: Type.Integer(),
  /** Unique visitors: signed-in users by id, anonymous visitors by ip + user agent. */
  uv: Type.Integer(),
});
export type VisitDay = Static<typeof VisitDay>;

export const VisitRank = Type.Object({ name: Type.String(), count: Type.Integer() });
export type VisitRank = Static<typeof VisitRank>;

/** GET /admin/visit-stats/overview: today, the last 30 days (oldest first, today last), and the top 10s over them. */
export const VisitOverview = Type.Object({
  timeZone: Type.String(),
  today: VisitDay,
  days: Type.Array(VisitDay),
  /** Paths without their query string. */
  topPages: Type.Array(VisitRank),
  /** Another site's origin, or the in-app path the visitor came from. */
  topReferrers: Type.Array(VisitRank),
  topEvents: Type.Array(VisitRank),
});
export type VisitOverview = Static<typeof VisitOverview>;

/** One hour of today (0–23, Shanghai): orders created and their amount in fen. */
export const MonitorHour = Type.Object({ hour: Type.Integer(), count: Type.Integer(), amount: Type.Integer() });
export type MonitorHour = Static<typeof MonitorHour>;

export const OnlineStaff = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  nickname: Type.String(),
  roleName: Type.String(),
  lastSeenAt: Instant,
});
export type OnlineStaff = Static<typeof OnlineStaff>;

export const MonitorImport = Type.Object({
  id: Type.Integer(),
  content: Type.String(),
  operator: Type.String(),
  /** The call's outcome in the operation log: it answered, or it failed. */
  status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
  /**
   * What the import did: every row written, some written and some rejected (valid rows kept),
   * or nothing written (the call failed, or an all-or-nothing import with a rejected row).
   */
  outcome: Type.Union([Type.Literal('succeeded'), Type.Literal('partial'), Type.Literal('failed')]),
  createTime: Instant,
  durationMs: Type.Integer(),
});
export type MonitorImport = Static<typeof MonitorImport>;

/** GET /admin/monitor: today's live figures. */
export const MonitorData = Type.Object({
  timeZone: Type.String(),
  date: Type.String(),
  generatedAt: Instant,
  /** 24 entries, hour 0 to 23 (later hours of today are 0). */
  hours: Type.Array(MonitorHour),
  todayCount: Type.Integer(),
  todayAmount: Type.Integer(),
  /** Staff (admin roles and inspectors) with a page view or client event in the last 15 minutes. */
  onlineWindowMinutes: Type.Integer(),
  onlineStaff: Type.Array(OnlineStaff),
  /** The latest order imports from the operation log, newest first. */
  latestImports: Type.Array(MonitorImport),
});
export type MonitorData = Static<typeof MonitorData>;
