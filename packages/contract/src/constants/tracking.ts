/**
 * The client events the app sends (`POST /api/analytics/event`), counted by
 * name on the visit statistics' "top events". One list: the screens send these names and the demo
 * seeder writes the same, so the figures of a first start read like the real ones.
 */
export const TRACKED_EVENTS = {
  /** The order list exported to xlsx. */
  orderExport: 'order.export',
  /** An order import finished (some rows or all imported). */
  orderImport: 'order.import',
  /** An order's detail opened from the list. */
  orderDetailOpen: 'order.detail.open',
  /** Light/dark switched from the navbar. */
  themeToggle: 'theme.toggle',
  /** The language switched from the navbar. */
  localeChange: 'locale.change',
} as const;

export type TrackedEvent = (typeof TRACKED_EVENTS)[keyof typeof TRACKED_EVENTS];
