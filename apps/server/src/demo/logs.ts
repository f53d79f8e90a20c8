/**
 * The demo's operation log: what the app's routes would have written over the period — logins
 * (a few with a wrong password), each order created or edited, recharges, subscriptions, new
 * shops and their changes — with the same module, action, content and path as the routes.
 */
import { t } from '../lib/messages.ts';
import { viewAsNote } from '../lib/view-as-note.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, toIso } from '../lib/time.ts';
import { englishLog, logText, storedLog, type LogText } from '../lib/log-text.ts';
import type { NewOperationLog } from '../db/schema.ts';
import { DEMO_PERIOD_DAYS, type DemoShop, type DemoSubscription } from './people.ts';
import type { Rng } from './prng.ts';

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50',
];

export interface LoggedOrder {
  id: number;
  code: string;
  objWechat: string;
  /** The game's dictionary value (told by its label when the log is read). */
  gameName?: string;
  result: number;
  userId: number;
  amount: number;
  inspector: string;
  createdAt: number;
  updatedAt: number;
}

export interface LoggedRecharge {
  userId: number;
  username: string;
  amount: number;
  balanceAfter: number;
  at: number;
}

export interface LogInput {
  now: number;
  ids: ReadonlyMap<string, number>;
  shops: readonly DemoShop[];
  orders: readonly LoggedOrder[];
  recharges: readonly LoggedRecharge[];
}

export function demoLogs(rng: Rng, input: LogInput): NewOperationLog[] {
  const { now, ids } = input;
  const ipOf = new Map<string, string>();
  const person = (username: string) => {
    let ip = ipOf.get(username);
    if (ip === undefined) {
      ip = `${rng.pick(['113.87', '183.14', '120.230', '222.73', '36.110'])}.${rng.int(1, 254)}.${rng.int(1, 254)}`;
      ipOf.set(username, ip);
    }
    return { operator: username, operatorId: ids.get(username) ?? null, ip, userAgent: rng.pick(AGENTS) };
  };
  const rows: NewOperationLog[] = [];
  const add = (
    username: string,
    at: number,
    module: string,
    action: string,
    method: string,
    path: string,
    text: LogText,
    payload: object,
    note = '',
  ) =>
    rows.push({
      module,
      action,
      ...line(text, note),
      ...person(username),
      status: 1,
      method,
      path,
      durationMs: rng.int(4, 90),
      errorMsg: '',
      payload: JSON.stringify(payload),
      createdAt: at,
    });

  // Logins: staff most days, shops every few days; now and then a mistyped password first.
  const periodStart = now - DEMO_PERIOD_DAYS * DAY_MS;
  const staff: [string, number][] = [
    ['superadmin', 0.3],
    ['admin01', 0.85],
    ['inspector01', 0.9],
    ['inspector02', 0.8],
    ['inspector03', 0.8],
  ];
  const loginPeople: [string, number][] = [
    ...staff,
    ...input.shops.filter((s) => s.status === 1).map((s) => [s.username, 0.35] as [string, number]),
  ];
  for (let day = periodStart; day < now; day += DAY_MS) {
    for (const [username, p] of loginPeople) {
      if (!rng.chance(p)) continue;
      const at = Math.floor(day / DAY_MS) * DAY_MS + rng.int(1, 14) * HOUR_MS + rng.int(0, 59) * MINUTE_MS;
      if (at >= now) continue;
      if (rng.chance(0.03)) {
        rows.push({
          ...person(username),
          operatorId: null,
          module: 'auth',
          action: 'login',
          ...line(logText('log.text.auth.login', { username })),
          status: 0,
          method: 'POST',
          path: '/api/admin/user/login',
          durationMs: rng.int(60, 200),
          errorMsg: t('zh-CN', 'auth.badCredentials'),
          payload: JSON.stringify({ username, password: '***' }),
          createdAt: at - MINUTE_MS,
        });
      }
      rows.push({
        ...person(username),
        operatorId: null,
        module: 'auth',
        action: 'login',
        ...line(logText('log.text.auth.login', { username })),
        status: 1,
        method: 'POST',
        path: '/api/admin/user/login',
        durationMs: rng.int(60, 200),
        errorMsg: '',
        payload: JSON.stringify({ username, password: '***' }),
        createdAt: at,
      });
    }
  }

  for (const o of input.orders) {
    add(
      o.inspector,
      o.createdAt,
      'order',
      'create',
      'POST',
      '/api/admin/order/create',
      logText('log.text.order.created', {
        code: o.code,
        id: o.id,
        wechat: o.objWechat,
        game: o.gameName ?? '',
        result: o.result,
        client: o.userId,
        amountFen: o.amount,
      }),
      { objWechat: o.objWechat, result: o.result, userId: o.userId, amount: o.amount },
    );
    if (o.updatedAt !== o.createdAt)
      add(
        o.inspector,
        o.updatedAt,
        'order',
        'update',
        'POST',
        '/api/admin/order/update',
        logText('log.text.order.updated', { code: o.code, id: o.id }),
        {
          id: o.id,
          description: '补充检测说明',
        },
      );
  }

  for (const r of input.recharges) {
    add(
      'admin01',
      r.at,
      'user',
      'recharge',
      'POST',
      '/api/admin/user/recharge',
      logText('log.text.user.recharge', { username: r.username, id: r.userId, amountFen: r.amount, balanceFen: r.balanceAfter }),
      { userId: r.userId, amount: r.amount },
    );
  }

  for (const shop of input.shops) {
    const id = ids.get(shop.username) ?? 0;
    if (shop.createdAt >= periodStart) {
      add(
        'admin01',
        shop.createdAt,
        'user',
        'create',
        'POST',
        '/api/admin/user/create',
        logText('log.text.user.created', { username: shop.username, id, role: 'shop' }),
        { username: shop.username, nickname: shop.nickname, roleName: 'shop' },
      );
    }
    for (const s of shop.subscriptions)
      if (s.createdAt >= periodStart) add(s.operator, s.createdAt, 'user', ...subscriptionLog(shop.username, id, s));
    if (shop.status === 0) {
      add(
        'admin01',
        shop.serviceEndAt + rng.int(1, 5) * DAY_MS,
        'user',
        'setStatus',
        'POST',
        '/api/admin/user/setUserStatus',
        logText('log.text.user.disabled', { username: shop.username, id }),
        { id, status: 0 },
      );
    } else if (rng.chance(0.3)) {
      const at = now - rng.int(1, DEMO_PERIOD_DAYS - 1) * DAY_MS;
      add(
        'admin01',
        at,
        'user',
        'update',
        'POST',
        '/api/admin/user/update',
        logText('log.text.user.updated', { username: shop.username, id, role: 'shop', status: 1 }),
        { id, nickname: shop.nickname },
      );
    }
  }
  // Switch roles (decision 0060), planted: yesterday the super admin viewed the app as shop0001
  // for a few minutes, and switched back; the rows read as the routes write them.
  const shopId = ids.get('shop0001');
  if (shopId !== undefined) {
    const superId = ids.get('superadmin') ?? 0;
    const at = Math.floor(now / DAY_MS) * DAY_MS - DAY_MS + 10 * HOUR_MS;
    add(
      'superadmin',
      at,
      'account',
      'viewAs',
      'POST',
      '/api/admin/account/view-as',
      logText('log.text.user.viewAsAccount', { username: 'superadmin', id: superId, role: 'shop', account: 'shop0001', accountId: shopId }),
      {
        role: 'shop',
        userId: shopId,
      },
    );
    add(
      'superadmin',
      at + 6 * MINUTE_MS,
      'account',
      'viewAsEnd',
      'POST',
      '/api/admin/account/view-as/end',
      logText('log.text.user.viewAsEnded', { username: 'superadmin', id: superId }),
      {},
      viewAsNote({ role: 'shop', username: 'shop0001' }),
    );
  }

  return rows.filter((r) => r.createdAt <= now).sort((a, b) => a.createdAt - b.createdAt);
}

function subscriptionLog(username: string, id: number, s: DemoSubscription): [string, string, string, LogText, object] {
  if (s.action === 'cancel')
    return [
      'cancelSubscription',
      'GET',
      '/api/admin/cancelSubscription',
      logText('log.text.user.subscriptionCancelled', { username, id }),
      { userId: id },
    ];
  const content = logText(s.action === 'renew' ? 'log.text.user.renew' : 'log.text.user.subscribe', {
    username,
    id,
    days: s.durationDays ?? 0,
    start: toIso(s.startAt),
    end: toIso(s.endAt),
  });
  return [
    'setSubscription',
    'POST',
    '/api/admin/setSubscription',
    content,
    { userId: id, type: s.type, durationDays: s.durationDays, remark: s.remark },
  ];
}

/** A row's line as the routes write it (decision 0097): the English text, the event and its parameters. */
const line = (text: LogText, note = '') => ({ content: note + englishLog(text), ...storedLog(text) });
