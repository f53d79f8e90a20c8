/** Workplace and announcements: plain values shared by the server and the web app. */

/** The business's time zone: the workplace's days and months (decision 0041). */
export const BUSINESS_TIME_ZONE = 'Asia/Shanghai';

/** Dictionary type of an announcement's type (values notice / activity / news). */
export const ANNOUNCEMENT_TYPE_DICT = 'announcement_type';
export const ANNOUNCEMENT_TITLE_MAX = 100;
/** Characters of the sanitized HTML. */
export const ANNOUNCEMENT_CONTENT_MAX = 20_000;
/** What a client may send before sanitizing (pasted markup is larger than what is kept). */
export const ANNOUNCEMENT_RAW_MAX = 100_000;

/** Renewals: service ending within this many days, or ended within RENEWAL_PAST_DAYS. */
export const RENEWAL_AHEAD_DAYS = 7;
export const RENEWAL_PAST_DAYS = 30;
/** The workplace's daily series covers this many business days, today included. */
export const WORKPLACE_SERIES_DAYS = 30;

/** The quick operations (the workplace's shortcuts), each shown to whom holds its permission. */
export const QUICK_OPERATIONS = [
  { key: 'order', path: '/order/inspect', permission: 'order:view' },
  { key: 'user', path: '/system/user', permission: 'user:view' },
  { key: 'role', path: '/system/role', permission: 'role:view' },
  { key: 'dict', path: '/system/dict', permission: 'dict:view' },
  { key: 'log', path: '/system/log', permission: 'log:view' },
  { key: 'announcement', path: '/dashboard/workplace?publish=1', permission: 'announcement:create' },
] as const;
export type QuickOperationKey = (typeof QUICK_OPERATIONS)[number]['key'];

/** Buckets of the order analysis. */
export const ANALYSIS_BUCKETS = ['day', 'week', 'month'] as const;
export type AnalysisBucket = (typeof ANALYSIS_BUCKETS)[number];
/** At most this many business days per analysis call. */
export const ANALYSIS_MAX_DAYS = 731;
