/**
 * The demo's orders: about 5,000 over the last 90 days, spread over the shops by their share
 * and their service time, more in the evening and on weekends, with every result in
 * plausible shares, public and private ones, changed MACs, and targets caught before being
 * checked again (some on a new MAC, a few on the same one). Pure: amounts and codes are
 * added by the writer, which reads the shops' prices as the app does.
 */
import { normalizeMac, type OrderImageKind } from '@clearplay/contract';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../lib/time.ts';
import type { DemoImage } from './images.ts';
import type { DemoInspector, DemoShop } from './people.ts';
import type { Rng } from './prng.ts';

export const DEMO_ORDER_TARGET = 5000;

export interface DemoOrder {
  shop: number;
  inspector: number;
  createdAt: number;
  updatedAt: number;
  installationAt: number;
  result: number;
  objWechat: string;
  objWechatName: string;
  gameName: string;
  mac: string;
  objClientName: string;
  ifPublic: 0 | 1;
  ifChangedMac: 0 | 1;
  description: string;
  certImages: string;
  proofImages: string;
  personCertImages: string;
}

/** Result shares by dictionary value: mostly clean, one in eight caught cheating, a tenth waiting for a re-check. */
const RESULT_WEIGHT: Record<string, number> = { '0': 70, '1': 13, '2': 7, '3': 10 };

const DESCRIPTIONS: Record<string, readonly string[]> = {
  '0': ['检测通过，未发现外挂程序', '环境干净，无异常进程', '常规检测，无异常', '复检通过', ''],
  '1': [
    '发现透视辅助进程',
    '检测到自瞄外挂驱动',
    '发现加速器残留文件',
    '内存中发现外挂注入痕迹',
    '发现宏脚本与压枪辅助',
    '注册表中发现外挂启动项',
  ],
  '2': ['目标拒绝远程检测', '检测中途断开，无法完成', '未能提供完整环境截图'],
  '3': ['发现可疑驱动，待复检', '存在已删除文件痕迹，建议复检', '进程列表异常，待进一步确认'],
};

/** Where the targets come from when they are not the client's own companions. */
const OTHER_CLUBS = ['月光陪玩', '甜心电竞', '王牌陪练', '半糖陪玩', '蓝莓电竞', '暖阳陪玩俱乐部', '流星电竞', '糖果陪玩'];
const NAME_HEAD = ['小', '阿', '老', '', '', 'Ace丶', '夜'];
const NAME_BODY = [
  '鹿',
  '杰',
  '凯',
  '琪',
  '宇',
  '晨',
  '萌',
  '柒',
  '九',
  '白',
  '墨',
  '风',
  '雨',
  '星',
  '月',
  '安',
  '乐',
  '瑶',
  '甜',
  '狼',
  '猫',
  '枫',
];
const NAME_TAIL = ['', '', '酱', '哥', '姐', '子', '呀', '丶'];
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Evening-heavy hours of the day (Beijing time). */
const HOUR_WEIGHT: readonly (readonly [number, number])[] = Array.from(
  { length: 24 },
  (_, h) => [h, h < 2 ? 6 : h < 9 ? 1 : h < 13 ? 4 : h < 19 ? 7 : 10] as const,
);
const BEIJING = 8 * HOUR_MS;

const chatId = (rng: Rng) => {
  let id = rng.chance(0.6) ? 'wxid_' : rng.pick(['xiao', 'ace', 'yy', 'moon', 'cat', 'sky']);
  const n = rng.int(8, 12);
  for (let i = 0; i < n; i++) id += ALNUM[rng.int(0, ALNUM.length - 1)];
  return id;
};

const nickname = (rng: Rng) =>
  `${rng.pick(NAME_HEAD)}${rng.pick(NAME_BODY)}${rng.chance(0.4) ? rng.pick(NAME_BODY) : ''}${rng.pick(NAME_TAIL)}`;

function mac(rng: Rng): string {
  let hex = '';
  for (let i = 0; i < 12; i++) hex += '0123456789ABCDEF'[rng.int(0, 15)];
  const normal = normalizeMac(hex);
  if (normal === null) throw new Error(`generated MAC ${hex} is not a MAC`);
  return normal;
}

/** A moment in [from, to]: a random day (weekends busier), an evening-heavy hour. */
function momentIn(rng: Rng, from: number, to: number): number {
  for (;;) {
    const day = Math.floor((from + rng.next() * (to - from) + BEIJING) / DAY_MS);
    const weekend = [0, 6].includes(new Date(day * DAY_MS).getUTCDay());
    if (!weekend && rng.chance(0.25)) continue;
    const at = day * DAY_MS - BEIJING + rng.weighted(HOUR_WEIGHT) * HOUR_MS + rng.int(0, 59) * MINUTE_MS + rng.int(0, 59) * 1000;
    if (at >= from && at <= to) return at;
  }
}

/** How many orders each shop gets: its weight times its days of service in the period. */
function ordersPerShop(shops: readonly DemoShop[]): number[] {
  const shares = shops.map((s) => s.weight * Math.max(0, s.ordersTo - s.ordersFrom));
  const total = shares.reduce((a, b) => a + b, 0);
  return shares.map((share) => Math.round((DEMO_ORDER_TARGET * share) / total));
}

const imageList = (rng: Rng, images: readonly DemoImage[], min: number, max: number) => {
  const n = rng.int(min, max);
  const start = rng.int(0, images.length - 1);
  return Array.from({ length: n }, (_, i) => images[(start + i) % images.length]?.url ?? '').join(',');
};

interface Caught {
  objWechat: string;
  objWechatName: string;
  mac: string;
  objClientName: string;
  gameName: string;
}

export interface OrderDicts {
  /** Enabled values of the result dictionary that have a price. */
  results: readonly string[];
  /** Enabled games, most popular first. */
  games: readonly string[];
}

export function demoOrders(
  rng: Rng,
  shops: readonly DemoShop[],
  inspectors: readonly DemoInspector[],
  dicts: OrderDicts,
  images: Record<OrderImageKind, DemoImage[]>,
  now: number,
): DemoOrder[] {
  const results = dicts.results.map((value) => [value, RESULT_WEIGHT[value] ?? 5] as const);
  const games = dicts.games.map((g, i) => [g, dicts.games.length - i + 2] as const);
  if (results.length === 0 || games.length === 0) throw new Error('the demo needs the result and game dictionaries');

  // First every order's shop and time, then the details in time order (a target is caught before it is caught again).
  const slots: { shop: number; createdAt: number }[] = [];
  ordersPerShop(shops).forEach((n, shop) => {
    const s = shops[shop];
    if (s === undefined) return;
    for (let i = 0; i < n; i++) slots.push({ shop, createdAt: momentIn(rng, s.ordersFrom, s.ordersTo) });
  });
  slots.sort((a, b) => a.createdAt - b.createdAt || a.shop - b.shop);

  const caught: Caught[] = [];
  const orders = slots.map(({ shop, createdAt }): DemoOrder => {
    const client = shops[shop];
    if (client === undefined) throw new Error('no such demo shop');
    const working = inspectors.map((p, i) => [i, p.createdAt < createdAt ? p.weight : 0] as const);
    const again = caught.length > 20 && rng.chance(0.05) ? rng.pick(caught) : null;
    let ifChangedMac: 0 | 1;
    let target: Caught;
    let result: string;
    if (again !== null) {
      // A target caught before, checked again: mostly on a new MAC (and caught again or not), now and then caught on the same one,
      // and now and then a new account on the same machine (the history shows the machine's other chat IDs).
      const sameMac = rng.chance(0.35);
      const newAccount = !sameMac && rng.chance(0.25);
      ifChangedMac = sameMac || newAccount ? 0 : 1;
      target = sameMac
        ? again
        : newAccount
          ? { ...again, objWechat: chatId(rng), objWechatName: nickname(rng) }
          : { ...again, mac: mac(rng) };
      result = sameMac || rng.chance(0.6) ? '1' : rng.weighted(results);
      if (!dicts.results.includes(result)) result = rng.weighted(results);
    } else {
      target = {
        objWechat: chatId(rng),
        objWechatName: nickname(rng),
        mac: mac(rng),
        objClientName: rng.chance(0.7) ? client.nickname : rng.pick(OTHER_CLUBS),
        gameName: rng.weighted(games),
      };
      ifChangedMac = rng.chance(0.04) ? 1 : 0;
      result = rng.weighted(results);
    }
    if (result === '1') caught.push(target);
    const caughtNow = result === '1' || result === '3';
    const edited = rng.chance(0.02);
    return {
      shop,
      inspector: rng.weighted(working),
      createdAt,
      updatedAt: edited ? Math.max(createdAt, Math.min(now, createdAt + rng.int(10, 600) * MINUTE_MS)) : createdAt,
      installationAt: createdAt - rng.int(5, 180) * MINUTE_MS,
      result: Number(result),
      ...target,
      ifPublic: result === '1' ? (rng.chance(0.75) ? 1 : 0) : rng.chance(client.ifPublic === 1 ? 0.8 : 0.15) ? 1 : 0,
      ifChangedMac,
      description: rng.pick(DESCRIPTIONS[result] ?? ['']),
      certImages: imageList(rng, images.certImages, 1, 2),
      proofImages: imageList(rng, images.proofImages, caughtNow ? 1 : 0, caughtNow ? 3 : 1),
      personCertImages: imageList(rng, images.personCertImages, 0, 1),
    };
  });
  const story = privateCatchSeenAgain(rng.fork('stories'), shops, inspectors, dicts, images);
  return [...orders, ...story].sort((a, b) => a.createdAt - b.createdAt || a.shop - b.shop);
}

/**
 * One story every demo has, whatever the start time: a target another shop caught cheating in a
 * private record, checked later by shop0001 on a new MAC and found clean. It is what the target
 * history must never leak: shop0001 sees its own clean record only, and no repeat
 * marker. The random draws above make such a target likely but not certain, so it is planted.
 */
function privateCatchSeenAgain(
  rng: Rng,
  shops: readonly DemoShop[],
  inspectors: readonly DemoInspector[],
  dicts: OrderDicts,
  images: Record<OrderImageKind, DemoImage[]>,
): DemoOrder[] {
  const own = shops[0];
  if (own === undefined || !dicts.results.includes('0') || !dicts.results.includes('1')) return [];
  // the catch falls while both shops are served, at least a week before shop0001's last order
  const window = (s: DemoShop) => [Math.max(s.ordersFrom, own.ordersFrom), Math.min(s.ordersTo, own.ordersTo - 7 * DAY_MS)] as const;
  const otherIndex = shops.findIndex((s, i) => {
    const [from, to] = window(s);
    return i > 0 && s.status === 1 && to - from >= 2 * DAY_MS;
  });
  const other = shops[otherIndex];
  if (other === undefined) return [];
  const caughtAt = momentIn(rng, ...window(other));
  const checkedAt = momentIn(rng, caughtAt + 3 * DAY_MS, own.ordersTo);
  const target = {
    objWechat: chatId(rng),
    objWechatName: nickname(rng),
    objClientName: other.nickname,
    gameName: dicts.games[0] ?? '',
  };
  const inspectorAt = (at: number) => {
    const working = inspectors.map((p, i) => [i, p.createdAt < at ? p.weight : 0] as const);
    return rng.weighted(working);
  };
  const order = (shop: number, createdAt: number, result: 0 | 1, ifChangedMac: 0 | 1): DemoOrder => ({
    shop,
    inspector: inspectorAt(createdAt),
    createdAt,
    updatedAt: createdAt,
    installationAt: createdAt - rng.int(5, 180) * MINUTE_MS,
    result,
    ...target,
    mac: mac(rng),
    ifPublic: 0,
    ifChangedMac,
    description: rng.pick(DESCRIPTIONS[String(result)] ?? ['']),
    certImages: imageList(rng, images.certImages, 1, 2),
    proofImages: imageList(rng, images.proofImages, 1, result === 1 ? 3 : 1),
    personCertImages: imageList(rng, images.personCertImages, 0, 1),
  });
  return [order(otherIndex, caughtAt, 1, 0), order(0, checkedAt, 0, 1)];
}
