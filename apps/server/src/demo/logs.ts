/**
 * The demo's operation log: what the app's routes would have written over the period — logins
 * (a few with a wrong password), each order created or edited, recharges, subscriptions, new
 * shops and their changes — with the same module, action, content and path as the routes.
 */
import { t } from '../lib/messages.ts';
import { viewAsNote } from '../lib/view-as-note.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, toIso } from '../lib/time.ts';
import { formatFen } from '../modules/orders/orders.service.ts';
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
    content: string,
    payload: object,
  ) =>
    rows.push({
      module,
      action,
      content,
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
          content: `login ${username}`,
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
        content: `login ${username}`,
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
      `order ${o.code} (#${o.id}): ${o.objWechat}, result ${o.result}, client #${o.userId}, ${formatFen(o.amount)}`,
      { objWechat: o.objWechat, result: o.result, userId: o.userId, amount: o.amount },
    );
    if (o.updatedAt !== o.createdAt)
      add(o.inspector, o.updatedAt, 'order', 'update', 'POST', '/api/admin/order/update', `order ${o.code} (#${o.id}): updated`, {
        id: o.id,
        description: '补充检测说明',
      });
  }

  for (const r of input.recharges) {
    add(
      'admin01',
      r.at,
      'user',
      'recharge',
      'POST',
      '/api/admin/user/recharge',
      `user ${r.username} (#${r.userId}): recharge ${formatFen(r.amount)}, balance ${formatFen(r.balanceAfter)}`,
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
        `user ${shop.username} (#${id}): created with role shop`,
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
        `user ${shop.username} (#${id}): disabled`,
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
        `user ${shop.username} (#${id}): updated, role shop, status 1`,
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
      `user superadmin (#${superId}): viewing as shop shop0001 (#${shopId})`,
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
      `${viewAsNote({ role: 'shop', username: 'shop0001' })}user superadmin (#${superId}): switched back`,
      {},
    );
  }

  return rows.filter((r) => r.createdAt <= now).sort((a, b) => a.createdAt - b.createdAt);
}

function subscriptionLog(username: string, id: number, s: DemoSubscription): [string, string, string, string, object] {
  if (s.action === 'cancel')
    return [
      'cancelSubscription',
      'GET',
      '/api/admin/cancelSubscription',
      `user ${username} (#${id}): subscription cancelled`,
      { userId: id },
    ];
  const content = `user ${username} (#${id}): ${s.action} ${s.type ?? ''} ${s.durationDays ?? ''} days, ${toIso(s.startAt)} → ${toIso(s.endAt)}`;
  return [
    'setSubscription',
    'POST',
    '/api/admin/setSubscription',
    content,
    { userId: id, type: s.type, durationDays: s.durationDays, remark: s.remark },
  ];
}
