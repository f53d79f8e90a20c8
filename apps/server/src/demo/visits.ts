/**
 * The demo's visits: a few weeks of page views and client events, written through the
 * tracking service's writers so the day counters follow the raw rows exactly as they do for real
 * visits. Staff use the back office (the super admin its dashboards and system screens, the admin
 * and inspectors the order screen, shops their records), anonymous visitors read /, /home and
 * /linkstore, coming from search engines, WeChat or nowhere; staff actions send events. The
 * super admin and an inspector were active in the last minutes, so the monitor shows them online
 * right after the first start.
 */
import { TRACKED_EVENTS } from '@clearplay/contract';
import type { Db } from '../db/index.ts';
import { businessDayOf } from '../lib/business-time.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../lib/time.ts';
import { writeEvent, writePageView, type Visitor } from '../modules/tracking/tracking.service.ts';
import type { Rng } from './prng.ts';

/** How many days back the demo's visits go (today included). */
export const DEMO_VISIT_DAYS = 21;

const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const AGENTS = [
  DESKTOP,
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
];
const ANONYMOUS_PAGES: readonly (readonly [string, number])[] = [
  ['/', 5],
  ['/home', 3],
  ['/linkstore', 2],
  ['/login', 2],
];
const OUTSIDE_REFERRERS: readonly (readonly [string, number])[] = [
  ['', 5],
  ['https://www.baidu.com/s?wd=clearplay', 4],
  ['https://mp.weixin.qq.com/s/demo', 3],
  ['https://www.google.com/', 1],
  ['https://www.bilibili.com/video/demo', 1],
];
const SUPER_ADMIN_PAGES = [
  '/dashboard/workplace',
  '/dashboard/monitor',
  '/visualization/data-analysis',
  '/order/inspect',
  '/system/user',
  '/system/log',
  '/system/role',
  '/system/dict',
];
const STAFF_EVENTS: readonly (readonly [string, number])[] = [
  [TRACKED_EVENTS.orderExport, 3],
  [TRACKED_EVENTS.orderImport, 1],
  [TRACKED_EVENTS.orderDetailOpen, 5],
  [TRACKED_EVENTS.themeToggle, 1],
  [TRACKED_EVENTS.localeChange, 1],
];

interface Planned {
  at: number;
  visitor: Visitor;
  view?: { path: string; referrer: string };
  event?: string;
}

export interface DemoVisitInput {
  now: number;
  /** User ids by username (the super admin, admin01, the demo's shops and inspectors). */
  ids: ReadonlyMap<string, number>;
  shops: readonly string[];
  inspectors: readonly string[];
}

/** A working-hours instant of the Shanghai day starting at `day` (08:00–22:59). */
const during = (rng: Rng, day: number) => day + rng.int(8, 22) * HOUR_MS + rng.int(0, 59) * MINUTE_MS;
/** Drawn visits end this long before now, so only the explicit "active right now" ones make staff online. */
const QUIET_MS = 20 * MINUTE_MS;

/** The visits as data (pure), oldest first. */
export function planVisits(rng: Rng, input: DemoVisitInput): Planned[] {
  const { now, ids } = input;
  const today = businessDayOf(now);
  const planned: Planned[] = [];
  const staff = (username: string): Visitor => ({
    userId: ids.get(username) ?? null,
    ip: `10.8.0.${(ids.get(username) ?? 0) % 250}`,
    userAgent: DESKTOP,
  });
  /** A session: a few pages in a row, each the previous one's referrer, then maybe an event. */
  const session = (visitor: Visitor, start: number, pages: readonly string[], events: number, until = now - QUIET_MS) => {
    let at = start;
    let referrer = '';
    for (const path of pages) {
      if (at > until) return;
      planned.push({ at, visitor, view: { path, referrer } });
      referrer = path;
      at += rng.int(20, 240) * 1000;
    }
    for (let i = 0; i < events && at <= until; i++) {
      planned.push({ at, visitor, event: rng.weighted(STAFF_EVENTS) });
      at += rng.int(10, 120) * 1000;
    }
  };
  for (let d = DEMO_VISIT_DAYS - 1; d >= 0; d--) {
    const day = today - d * DAY_MS;
    const weekend = [0, 6].includes(new Date(day + 8 * HOUR_MS).getUTCDay());
    // The super admin: most days, a tour of the dashboards and a system screen or two.
    if (rng.chance(weekend ? 0.4 : 0.9)) {
      const pages = ['/dashboard/workplace', ...Array.from({ length: rng.int(2, 5) }, () => rng.pick(SUPER_ADMIN_PAGES))];
      session(staff('superadmin'), during(rng, day), pages, rng.int(0, 2));
    }
    if (rng.chance(0.7)) session(staff('admin01'), during(rng, day), ['/order/inspect', '/order/inspect?result=1'], rng.int(0, 3));
    for (const inspector of input.inspectors) {
      for (let s = rng.int(weekend ? 0 : 1, 3); s > 0; s--) session(staff(inspector), during(rng, day), ['/order/inspect'], rng.int(0, 3));
    }
    for (const shop of input.shops) {
      if (rng.chance(0.25)) session(staff(shop), during(rng, day), ['/order/inspect'], 0);
    }
    // Anonymous visitors of the public pages.
    for (let v = rng.int(weekend ? 8 : 15, weekend ? 20 : 40); v > 0; v--) {
      const visitor: Visitor = {
        userId: null,
        ip: `${rng.pick(['113.87', '183.14', '120.230', '222.73', '36.110'])}.${rng.int(1, 254)}.${rng.int(1, 254)}`,
        userAgent: rng.pick(AGENTS),
      };
      const first = rng.weighted(ANONYMOUS_PAGES);
      const at = during(rng, day);
      if (at > now - QUIET_MS) continue;
      planned.push({ at, visitor, view: { path: first, referrer: rng.weighted(OUTSIDE_REFERRERS) } });
      if (rng.chance(0.4)) {
        const second = rng.weighted(ANONYMOUS_PAGES);
        planned.push({ at: at + rng.int(10, 90) * 1000, visitor, view: { path: second, referrer: first } });
      }
    }
  }
  // Active right now: the monitor's "staff online".
  session(staff('superadmin'), now - 6 * MINUTE_MS, ['/dashboard/workplace', '/dashboard/monitor'], 0, now);
  const online = input.inspectors[0];
  if (online !== undefined) session(staff(online), now - 9 * MINUTE_MS, ['/order/inspect'], 1, now);
  return planned.filter((p) => p.at <= now && p.at > today - DEMO_VISIT_DAYS * DAY_MS).sort((a, b) => a.at - b.at);
}

/** Writes the planned visits through the tracking writers (raw rows + day counters) on the demo's transaction. */
export async function writeDemoVisits(trx: Db, rng: Rng, input: DemoVisitInput): Promise<{ pageViews: number; events: number }> {
  let pageViews = 0;
  let events = 0;
  for (const p of planVisits(rng, input)) {
    if (p.view !== undefined) {
      await writePageView(trx, { path: p.view.path, referrer: p.view.referrer, userAgent: p.visitor.userAgent }, p.visitor, p.at);
      pageViews += 1;
    }
    if (p.event !== undefined) {
      await writeEvent(trx, { event: p.event, timestamp: p.at }, p.visitor, p.at);
      events += 1;
    }
  }
  return { pageViews, events };
}
