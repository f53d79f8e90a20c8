/**
 * The demo's people: 20 shops (shop0001, seeded with the demo accounts, and 19 more) with
 * their prices and subscription histories, 3 inspectors (inspector01 and two more), and the
 * staff accounts that act in the history. Pure: the same seed and start time give the same people.
 */
import { DAY_MS, HOUR_MS } from '../lib/time.ts';
import type { SubscriptionAction } from '../db/schema.ts';
import type { Rng } from './prng.ts';

export const DEMO_SHOP_COUNT = 20;
/** The history reaches this far back from the start. */
export const DEMO_PERIOD_DAYS = 90;

const pad = (n: number) => String(n).padStart(4, '0');

/** shop0001 keeps the nickname the demo accounts give it; the others are named like real companion shops. */
const SHOP_NAMES = [
  '星辰电竞陪玩',
  '南风陪玩俱乐部',
  '夜猫电竞',
  '鹿鸣陪练工作室',
  '青柠电竞',
  '小熊猫陪玩',
  '极光电竞俱乐部',
  '白鲸陪玩',
  '柠檬电竞工作室',
  '北辰陪练',
  '九月电竞',
  '风铃陪玩',
  '橘子电竞',
  '云端陪玩俱乐部',
  '星海电竞工作室',
  '初见陪玩',
  '烟火电竞',
  '鲸落陪练',
  '浮光电竞俱乐部',
] as const;

export type SubscriptionPlan = 'yearly' | 'halfYear' | 'expiring' | 'ended' | 'cancelled' | 'lapsed';

/** Fixed per shop so that every kind of subscription is always present: index 0 is shop0001. */
const PLANS: readonly SubscriptionPlan[] = [
  'yearly',
  'yearly',
  'expiring',
  'halfYear',
  'ended',
  'yearly',
  'expiring',
  'yearly',
  'halfYear',
  'cancelled',
  'yearly',
  'ended',
  'expiring',
  'yearly',
  'lapsed',
  'halfYear',
  'yearly',
  'expiring',
  'ended',
  'yearly',
];

export interface DemoPrices {
  defaultPrice: number;
  defaultPriceCheat: number;
  defaultPriceNotPass: number;
  defaultPriceSuspect: number;
}

export interface DemoSubscription {
  action: SubscriptionAction;
  type: 'monthly' | 'yearly' | 'custom' | null;
  durationDays: number | null;
  startAt: number;
  endAt: number;
  /** Who recorded it: admin01 or superadmin. */
  operator: 'admin01' | 'superadmin';
  remark: string;
  createdAt: number;
}

export interface DemoShop {
  username: string;
  nickname: string;
  /** Already seeded with the demo accounts (shop0001): not inserted again, prices read from its row. */
  existing: boolean;
  /** The prices a new shop is inserted with (null for shop0001: its row has them). */
  prices: DemoPrices | null;
  wechat: string;
  phone: string;
  ifPublic: 0 | 1;
  status: 0 | 1;
  createdAt: number;
  plan: SubscriptionPlan;
  subscriptions: DemoSubscription[];
  serviceEndAt: number;
  /** Share of the orders (relative). */
  weight: number;
  /** Orders fall in [ordersFrom, ordersTo]. */
  ordersFrom: number;
  ordersTo: number;
  /** Stops recharging this long before the start, so its balance ends negative. */
  owes: boolean;
}

export interface DemoInspector {
  username: string;
  nickname: string;
  existing: boolean;
  createdAt: number;
  weight: number;
}

const yuan = (n: number) => n * 100;

function prices(rng: Rng): DemoPrices {
  const normal = rng.pick([15, 20, 25, 30, 35, 40]);
  const cheat = normal + rng.pick([20, 25, 30, 40]);
  return {
    defaultPrice: yuan(normal),
    defaultPriceCheat: yuan(cheat),
    defaultPriceNotPass: yuan(rng.pick([10, 15, 20])),
    defaultPriceSuspect: yuan(Math.round((normal + cheat) / 2 / 5) * 5),
  };
}

const CHAIN: Record<'monthly' | 'yearly' | 'custom', number> = { monthly: 30, yearly: 365, custom: 180 };

/**
 * A subscription chain: subscribe at `start`, then renewals of the same length, each recorded a
 * few days before the previous end (renew extends from the current end, as the app does).
 */
function chain(rng: Rng, now: number, type: 'monthly' | 'yearly' | 'custom', start: number, count: number): DemoSubscription[] {
  const days = CHAIN[type];
  const list: DemoSubscription[] = [];
  for (let i = 0; i < count; i++) {
    const startAt = start + i * days * DAY_MS;
    const recorded = i === 0 ? startAt : startAt - rng.int(0, 5) * DAY_MS - rng.int(1, 10) * HOUR_MS;
    list.push({
      action: i === 0 ? 'subscribe' : 'renew',
      type,
      durationDays: days,
      startAt,
      endAt: startAt + days * DAY_MS,
      operator: rng.chance(0.8) ? 'admin01' : 'superadmin',
      remark: i === 0 ? '新开通' : rng.pick(['', '续费', '微信转账续费', '老客户续费']),
      createdAt: Math.min(recorded, now - HOUR_MS),
    });
  }
  return list;
}

/** Subscriptions of a plan; the last one's end is the shop's service end. */
function subscriptionsOf(rng: Rng, now: number, plan: SubscriptionPlan, createdAt: number): DemoSubscription[] {
  switch (plan) {
    case 'yearly': {
      const n = Math.ceil((now + 20 * DAY_MS - createdAt) / (365 * DAY_MS));
      return chain(rng, now, 'yearly', createdAt, Math.max(1, n));
    }
    case 'halfYear': {
      const n = Math.ceil((now + 15 * DAY_MS - createdAt) / (180 * DAY_MS));
      return chain(rng, now, 'custom', createdAt, Math.max(1, n));
    }
    case 'expiring':
    case 'ended':
    case 'lapsed': {
      const end =
        plan === 'expiring'
          ? now + rng.int(1, 6) * DAY_MS + rng.int(1, 20) * HOUR_MS
          : now - (plan === 'ended' ? rng.int(3, 25) : rng.int(45, 70)) * DAY_MS;
      const n = Math.max(1, Math.floor((end - createdAt) / (30 * DAY_MS)));
      return chain(rng, now, 'monthly', end - n * 30 * DAY_MS, n);
    }
    case 'cancelled': {
      // Ended by staff 10–20 days ago, while a yearly subscription was running.
      const at = now - rng.int(10, 20) * DAY_MS;
      const list = chain(rng, now, 'yearly', createdAt, Math.max(1, Math.ceil((at - createdAt) / (365 * DAY_MS))));
      list.push({
        action: 'cancel',
        type: null,
        durationDays: null,
        startAt: at,
        endAt: at,
        operator: 'admin01',
        remark: '店铺停业，提前终止',
        createdAt: at,
      });
      return list;
    }
  }
}

export function demoShops(rng: Rng, now: number): DemoShop[] {
  const periodStart = now - DEMO_PERIOD_DAYS * DAY_MS;
  return PLANS.map((plan, i) => {
    const r = rng.fork(`shop${i}`);
    // Two shops joined during the period; the others before it.
    const joinedLately = i === 16 || i === 19;
    const createdAt = now - (joinedLately ? r.int(30, 60) : r.int(100, 500)) * DAY_MS - r.int(0, 23) * HOUR_MS;
    const subscriptions = subscriptionsOf(r, now, plan, createdAt);
    const last = subscriptions[subscriptions.length - 1];
    if (last === undefined) throw new Error('a demo shop without a subscription');
    const serviceEndAt = last.endAt;
    return {
      username: `shop${pad(i + 1)}`,
      nickname: i === 0 ? '演示店铺01' : (SHOP_NAMES[i - 1] ?? `演示店铺${pad(i + 1)}`),
      existing: i === 0,
      prices: i === 0 ? null : prices(r),
      wechat: `wx_shop${pad(i + 1)}`,
      phone: `13${r.int(5, 9)}${String(r.int(0, 99_999_999)).padStart(8, '0')}`,
      ifPublic: r.chance(0.4) ? 1 : 0,
      status: plan === 'lapsed' ? 0 : 1,
      createdAt,
      plan,
      subscriptions,
      serviceEndAt,
      // shop0001 is among the busiest, so the demo shop's own view is full.
      weight: i === 0 ? 1.6 : 1 / Math.pow(1 + ((i * 7) % 19), 0.6),
      ordersFrom: Math.max(periodStart, createdAt + DAY_MS),
      ordersTo: Math.min(now - 10 * 60_000, serviceEndAt),
      owes: i === 1 || i === 7 || i === 13,
    };
  });
}

export function demoInspectors(rng: Rng, now: number): DemoInspector[] {
  return [
    { username: 'inspector01', nickname: '检测员01', existing: true, createdAt: now - 400 * DAY_MS, weight: 5 },
    { username: 'inspector02', nickname: '检测员02', existing: false, createdAt: now - rng.int(200, 300) * DAY_MS, weight: 3 },
    { username: 'inspector03', nickname: '检测员03', existing: false, createdAt: now - rng.int(40, 50) * DAY_MS, weight: 2 },
  ];
}
