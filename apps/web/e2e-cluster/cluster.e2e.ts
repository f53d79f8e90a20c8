// Two instances behind nginx (decision 0103): browser journeys through the load
// balancer of deploy/nginx/clearplay.conf, on the demo business, with the two ClearPlay
// processes of stack.ts sharing one PostgreSQL database. nginx tells in X-ClearPlay-Upstream
// which instance answered; each journey records it and proves that the steps that matter were
// answered by different instances. nginx's round robin is steered with health probes before
// such a step (the next request goes to the instance that did not answer the last one), and the
// answer's header is then checked, so a proof never rests on the steering alone.
import { createHash } from 'node:crypto';
import type { Browser, Page, Request, Response, Route } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import {
  ADMIN_PASSWORD,
  allowProblems,
  DEMO_PASSWORD,
  expect,
  login,
  newContext,
  pick,
  signedIn,
  signInToken,
  test,
  until,
} from '../e2e/harness.ts';
import { png } from '../e2e/png.ts';
import type { ClusterInfo } from './stack.ts';

const cluster: ClusterInfo = (() => {
  const raw = process.env.CLUSTER;
  if (!raw) throw new Error('CLUSTER is unset: run these journeys with playwright.cluster.config.ts (its global setup starts the stack)');
  return JSON.parse(raw) as ClusterInfo;
})();
type Name = 'a' | 'b';
const UPSTREAM = 'x-clearplay-upstream';
const MB = 1024 * 1024;

/**
 * The instance nginx says answered, as 'a' or 'b': its upstream address, the last one when nginx
 * tried several (`127.0.0.1:4301, 127.0.0.1:4300`: the first refused, the second answered).
 */
function instanceOf(upstream: string | undefined | null): Name {
  const last = upstream?.split(',').pop()?.trim();
  const found = cluster.instances.find((i) => i.upstream === last);
  if (!found) throw new Error(`answered by an unknown upstream "${String(upstream)}"`);
  return found.name;
}
const other = (name: Name): Name => (name === 'a' ? 'b' : 'a');
const instance = (name: Name) => cluster.instances.find((i) => i.name === name)!;

/** One GET of /api/health through nginx; answers which instance answered. */
async function probe(): Promise<Name> {
  const res = await fetch(`${cluster.url}/api/health`);
  expect(res.status).toBe(200);
  return instanceOf(res.headers.get(UPSTREAM));
}

/** Makes nginx's round robin send the next request to `name`: probes until the last answer came from the other one. */
async function steerTo(name: Name): Promise<void> {
  for (let i = 0; i < 3; i++) if ((await probe()) !== name) return;
  throw new Error(`nginx keeps sending requests to ${name}: not round robin`);
}

/** The requests `page` has sent and not yet had answered (or failed), kept from the first steer on. */
const openRequests = new WeakMap<Page, Set<Request>>();
function trackOpenRequests(page: Page): Set<Request> {
  let open = openRequests.get(page);
  if (open) return open;
  const tracked = new Set<Request>();
  page.on('request', (r) => tracked.add(r));
  page.on('requestfinished', (r) => tracked.delete(r));
  page.on('requestfailed', (r) => tracked.delete(r));
  openRequests.set(page, tracked);
  open = tracked;
  return open;
}

/** Waits until none of `requests` is still open (or held back in `held`): after that, none of them can reach nginx. */
async function answered(open: Set<Request>, requests: Request[], held: Set<Request>): Promise<void> {
  const deadline = Date.now() + 15_000;
  const waiting = (r: Request) => open.has(r) && !held.has(r);
  while (requests.some(waiting)) {
    if (Date.now() > deadline) {
      const left = requests.filter(waiting).map((r) => `${r.method()} ${new URL(r.url()).pathname}`);
      throw new Error(`requests sent before the steered one are still open after 15 s: ${left.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Holds `page`'s next request to `path` (or to a path the function accepts) until nginx's round robin points at the instance `to()`
 * names (asked then, so it may depend on an answer that came meanwhile), then lets it go; the
 * page's other requests wait meanwhile, until that one is answered. So the request nginx sees
 * next is that one, whatever the page loads beside it (a lazy part of the app, a poll). The
 * page's requests sent before it (the screen's texts a step loads as it opens, beside its first
 * call) are answered first: one of them reaching nginx after the probes would take the turn.
 */
async function steerNext(page: Page, path: string | ((path: string) => boolean), to: () => Name): Promise<void> {
  const matches = typeof path === 'string' ? (p: string) => p === path : path;
  const open = trackOpenRequests(page);
  let gate: Promise<unknown> | undefined;
  const held = new Set<Request>();
  const handler = async (route: Route) => {
    const request = route.request();
    if (gate === undefined && matches(new URL(request.url()).pathname)) {
      gate = page.waitForResponse((r) => r.request() === request).catch(() => undefined);
      void gate.then(() => page.unroute('**/*', handler));
      await answered(
        open,
        [...open].filter((r) => r !== request),
        held,
      );
      await steerTo(to());
      await route.continue();
      return;
    }
    if (gate !== undefined) {
      held.add(request);
      await gate;
    }
    await route.fallback();
  };
  await page.route('**/*', handler);
}

interface Answer {
  method: string;
  path: string;
  status: number;
  by: Name;
}

/**
 * Every answer `page` gets from the app through nginx to a call it makes from now on, with the
 * instance that gave it. A call already on its way is left out: an instance that is stopping
 * still answers what it has begun (the server's graceful close), after the test has seen it go.
 */
function answersOf(page: Page): Answer[] {
  const seen: Answer[] = [];
  const asked = new WeakSet<Request>();
  page.on('request', (request: Request) => void asked.add(request));
  page.on('response', (response: Response) => {
    if (!response.url().startsWith(cluster.url) || !asked.has(response.request())) return;
    const upstream = response.headers()[UPSTREAM];
    if (upstream === undefined) return; // nginx's own answers (none expected)
    seen.push({
      method: response.request().method(),
      path: new URL(response.url()).pathname,
      status: response.status(),
      by: instanceOf(upstream),
    });
  });
  return seen;
}

/** The one answer to `method path` among `seen` (the last one when several). */
function answerTo(seen: Answer[], method: string, path: string | RegExp): Answer {
  const found = seen.filter((a) => a.method === method && (typeof path === 'string' ? a.path === path : path.test(a.path)));
  expect(found.length, `an answer to ${method} ${String(path)}`).toBeGreaterThan(0);
  return found[found.length - 1]!;
}

/** The envelope of `GET /api${path}` sent straight to one instance (not through nginx) with `token`. */
async function direct<T = unknown>(name: Name, path: string, token: string): Promise<{ status: number; msg: string; data: T }> {
  const res = await fetch(`${instance(name).url}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return (await res.json()) as { status: number; msg: string; data: T };
}

/** The same call straight to both instances: their envelopes' statuses. */
async function onBoth(path: string, token: string): Promise<Record<Name, number>> {
  const [a, b] = await Promise.all([direct('a', path, token), direct('b', path, token)]);
  return { a: a.status, b: b.status };
}

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('token') ?? '');

async function query<T extends object>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The code an authenticator app shows for `secret`, `offsetMs` from now. */
const codeOf = (secret: string, offsetMs = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetMs });

/** A fresh context signed in through nginx (the harness's `signedIn`), on `path`. */
const signIn = (username: string, password: string, path: string) => signedIn(browserOf(), cluster.url, { username, password, path });
let launched: Browser | undefined;
const browserOf = () => {
  if (!launched) throw new Error('no browser yet');
  return launched;
};

async function signOut(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await page.waitForURL(/\/login/);
}

test.beforeAll(({ browser }) => {
  launched = browser;
});

test.describe('two instances behind nginx', () => {
  test('nginx alternates between the instances, and each serves the app', async () => {
    const order: Name[] = [];
    for (let i = 0; i < 6; i++) order.push(await probe());
    // Round robin: never the same instance twice in a row while nothing else comes in.
    expect(new Set(order)).toEqual(new Set(['a', 'b']));
    for (let i = 1; i < order.length; i++) expect(order[i], `probe ${i + 1} of ${order.join(',')}`).toBe(other(order[i - 1]!));
    // The HTTPS headers the instances set because TRUST_PROXY says a proxy terminates TLS.
    const res = await fetch(`${cluster.url}/login`);
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('ClearPlay');
  });

  test('sign in on one instance and work on the other; sign out ends the session on both at once', async () => {
    const context = await newContext(browserOf(), cluster.url);
    const page = await context.newPage();
    const seen = answersOf(page);
    await page.goto('/login');
    await expect(page.getByTestId('login-username')).toBeVisible();
    await steerNext(page, '/api/admin/user/login', () => 'a');
    await login(page, 'shop0004', DEMO_PASSWORD);
    await expect(page.getByTestId('app-layout')).toBeVisible();
    const signIn = answerTo(seen, 'POST', '/api/admin/user/login');
    expect(signIn.status).toBe(200);
    // The orders the shop works on, asked of the other instance.
    await page.goto('/order/inspect');
    await steerNext(page, '/api/admin/order/list', () => other(signIn.by));
    await page.getByTestId('search-submit').first().click();
    const work = (a: Answer) => a.method === 'GET' && a.path === '/api/admin/order/list' && a.status === 200;
    await until(() => seen.filter((a) => work(a) && a.by === other(signIn.by)).length).toBeGreaterThan(0);
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    // Every call of the session was answered, by both instances.
    const calls = seen.filter((a) => a.path.startsWith('/api/'));
    expect(calls.filter((a) => a.status >= 400)).toEqual([]);
    expect(new Set(calls.map((a) => a.by))).toEqual(new Set(['a', 'b']));

    // Sign out through one instance: the token is refused by both at once.
    const token = await tokenOf(page);
    expect(await onBoth('/admin/user/info', token)).toEqual({ a: 200, b: 200 });
    await steerNext(page, '/api/admin/user/logout', () => other(signIn.by));
    await signOut(page);
    await until(() => seen.filter((a) => a.path === '/api/admin/user/logout').length).toBe(1);
    expect(answerTo(seen, 'GET', '/api/admin/user/logout')).toMatchObject({ status: 200, by: other(signIn.by) });
    expect(await onBoth('/admin/user/info', token)).toEqual({ a: 401, b: 401 });
    await context.close();
  });

  test('an admin disables a user on one instance: the user is out on both at once', async () => {
    const admin = await signIn('superadmin', ADMIN_PASSWORD, '/system/user');
    const adminSeen = answersOf(admin);
    const user = await signIn('shop0003', DEMO_PASSWORD, '/order/inspect');
    const token = await tokenOf(user);
    expect(await onBoth('/admin/user/info', token)).toEqual({ a: 200, b: 200 });

    const table = admin.getByTestId('user-table');
    await table.locator('#search-system-user_username').fill('shop0003');
    await table.getByTestId('search-submit').click();
    await expect(table.locator('.ant-table-row')).toHaveCount(1);
    await admin.getByTestId('user-status-shop0003').click();
    const ask = admin.locator('.ant-modal-confirm', { hasText: '停用用户“shop0003”？' });
    await ask.getByRole('button', { name: /停\s*用/ }).click();
    await expect(admin.locator('.ant-message-notice', { hasText: '状态设置成功' }).first()).toBeVisible();
    const disabledBy = answerTo(adminSeen, 'POST', '/api/admin/user/setUserStatus');
    expect(disabledBy.status).toBe(200);

    // Both instances refuse the session at once (50012: ended by someone else).
    expect(await onBoth('/admin/user/info', token)).toEqual({ a: 50012, b: 50012 });
    // And the user's browser, through the other instance, is told so.
    allowProblems(/HTTP 401 (GET|POST) \/api\//);
    const userSeen = answersOf(user);
    await steerNext(
      user,
      (path) => path.startsWith('/api/'),
      () => other(disabledBy.by),
    );
    await user.locator('.ant-menu').getByText('检测记录', { exact: true }).click();
    await expect(user.locator('.ant-modal-confirm-title', { hasText: '您已退出登录' })).toBeVisible();
    expect(userSeen.find((a) => a.path.startsWith('/api/'))).toMatchObject({ status: 401, by: other(disabledBy.by) });
    await user.context().close();
    await admin.context().close();
  });

  test('the sign-in lockout counts the failures on both instances together', async () => {
    const context = await newContext(browserOf(), cluster.url);
    const page = await context.newPage();
    const seen = answersOf(page);
    await page.goto('/login');
    allowProblems(/HTTP 400 POST \/api\/admin\/user\/login/, /HTTP 429 POST \/api\/admin\/user\/login/, /error shown: /);
    // Five wrong passwords (the lockout's limit, LOCK_MAX_FAILURES), alternating.
    for (let i = 0; i < 5; i++) {
      await steerNext(page, '/api/admin/user/login', () => (i % 2 === 0 ? 'a' : 'b'));
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/admin/user/login'));
      await login(page, 'shop0002', `wrong-password-${i}`);
      expect((await answered).status()).toBe(400);
    }
    const failures = seen.filter((a) => a.path === '/api/admin/user/login').map((a) => a.by);
    expect(failures).toEqual(['a', 'b', 'a', 'b', 'a']);
    // Neither instance saw five failures on its own.
    for (const name of ['a', 'b'] as const) expect(failures.filter((by) => by === name).length, failures.join(',')).toBeLessThan(5);
    // The right password is now refused, by either instance.
    const refusedBy: Name[] = [];
    for (const name of ['b', 'a'] as const) {
      await steerNext(page, '/api/admin/user/login', () => name);
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/admin/user/login'));
      await login(page, 'shop0002', DEMO_PASSWORD);
      const response = await answered;
      expect(response.status()).toBe(429);
      refusedBy.push(instanceOf(response.headers()[UPSTREAM]));
      await expect(page.getByTestId('login-error')).toContainText('分钟');
    }
    expect(refusedBy).toEqual(['b', 'a']);
    await expect(page.getByTestId('app-layout')).toHaveCount(0);
    await context.close();
  });

  test('a client cannot choose its address: a forged X-Forwarded-For neither escapes the lockout nor lands in the login records', async () => {
    const signInAs = (password: string, forged: string) =>
      fetch(`${cluster.url}/api/admin/user/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forged },
        body: JSON.stringify({ username: 'shop0005', password }),
      });
    const answeredBy: Name[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await signInAs(`wrong-password-${i}`, `203.0.113.${i + 1}`);
      expect(res.status).toBe(400);
      answeredBy.push(instanceOf(res.headers.get(UPSTREAM)));
    }
    expect(new Set(answeredBy)).toEqual(new Set(['a', 'b']));
    // Each attempt claimed another address; the instances counted them all for the real one.
    const right = await signInAs(DEMO_PASSWORD, '198.51.100.7');
    expect(right.status).toBe(429);
    const recorded = await query<{ ip: string }>(`select distinct ip from login_records where username = 'shop0005'`);
    expect(recorded.map((r) => r.ip)).toEqual(['127.0.0.1']);
  });

  test('a second-factor sign-in: the ticket from one instance, the key sealed by the other, the code checked by the first', async () => {
    // A new admin: admins must use an authenticator app (TOTP_REQUIRED=admins, the default).
    const [role] = await query<{ id: number }>(`select id from roles where name = 'admin'`);
    const bossToken = await signInToken(cluster.url, 'superadmin', ADMIN_PASSWORD);
    const username = `cl_adm_${Date.now().toString(36)}`;
    const password = 'Cluster#2026';
    const created = await fetch(`${cluster.url}/api/admin/user/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bossToken}` },
      body: JSON.stringify({
        username,
        password,
        nickname: '集群管理员',
        roleId: role!.id,
        wechat: 'cluster_admin',
        phone: '13800000000',
        defaultPrice: 0,
        defaultPriceCheat: 0,
        defaultPriceSuspect: 0,
        defaultPriceNotPass: 0,
      }),
    });
    expect(((await created.json()) as { status: number; msg: string }).msg).toBe('ok');

    const context = await newContext(browserOf(), cluster.url);
    const page = await context.newPage();
    const seen = answersOf(page);
    await page.goto('/login');
    await steerNext(page, '/api/admin/user/login', () => 'a');
    await steerNext(page, '/api/admin/user/login/enrol', () => other(answerTo(seen, 'POST', '/api/admin/user/login').by));
    const enrolled = page.waitForResponse((r) => r.url().endsWith('/api/admin/user/login/enrol'));
    // The ticket is issued by one instance; the enrolment call comes straight after it, to the other.
    await login(page, username, password);
    await enrolled;
    await expect(page.getByTestId('login-enrol')).toBeVisible();
    const ticket = answerTo(seen, 'POST', '/api/admin/user/login');
    const enrolment = answerTo(seen, 'POST', '/api/admin/user/login/enrol');
    expect([ticket.status, enrolment.status]).toEqual([200, 200]);
    expect(enrolment.by, 'the enrolment was answered by the instance that did not issue the ticket').toBe(other(ticket.by));
    const secret = ((await page.getByTestId('login-enrol-secret').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await steerNext(page, '/api/admin/user/login/second-factor', () => other(enrolment.by));
    await page.getByTestId('login-code').fill(codeOf(secret));
    await page.getByTestId('login-code-submit').click();
    await expect(page.getByTestId('recovery-code')).toHaveCount(10);
    const confirmed = answerTo(seen, 'POST', '/api/admin/user/login/second-factor');
    expect(confirmed.status).toBe(200);
    expect(confirmed.by, 'the code was checked by the instance that did not seal the key').toBe(other(enrolment.by));
    await page.getByTestId('login-continue').click();
    await expect(page.getByTestId('app-layout')).toBeVisible();

    // Signed out and in again: the password on one instance, the next code on the other.
    await signOut(page);
    await steerNext(page, '/api/admin/user/login', () => enrolment.by);
    await login(page, username, password);
    await expect(page.getByTestId('login-code')).toBeVisible();
    const password2 = answerTo(seen, 'POST', '/api/admin/user/login');
    expect(password2.status).toBe(200);
    await steerNext(page, '/api/admin/user/login/second-factor', () => other(password2.by));
    await page.getByTestId('login-code').fill(codeOf(secret, 30_000));
    await page.getByTestId('login-code-submit').click();
    await expect(page.getByTestId('app-layout')).toBeVisible();
    const code2 = answerTo(seen, 'POST', '/api/admin/user/login/second-factor');
    expect(code2).toMatchObject({ status: 200, by: other(password2.by) });
    const [sealed] = await query<{ n: string }>(`select count(*) as n from users where username = $1 and totp_secret is not null`, [
      username,
    ]);
    expect(Number(sealed!.n)).toBe(1);
    await context.close();
  });

  test('a chunked upload whose parts reach both instances completes, is served by both, and the new order message reaches the shop on both', async () => {
    const shop = await signIn('shop0001', DEMO_PASSWORD, '/order/inspect');
    const shopToken = await tokenOf(shop);
    const before = await direct<{ total: number }>('a', '/admin/message/unread', shopToken);
    expect(before.status).toBe(200);

    const inspector = await signIn('inspector01', DEMO_PASSWORD, '/order/inspect');
    const seen = answersOf(inspector);
    await inspector.getByTestId('order-create').click();
    const form = inspector.locator('.ant-modal').filter({ has: inspector.getByTestId('order-form-objWechat') });
    await expect(form).toBeVisible();
    const objWechat = `wx_cluster_${Date.now().toString(36)}`;
    await form.getByTestId('order-form-objWechat').fill(objWechat);
    await form.getByTestId('order-form-objWechatName').fill('集群目标');
    await form.getByTestId('order-form-objClientName').fill('目标店铺');
    await form.getByTestId('order-form-mac').fill('aa:bb:cc:dd:ee:25');
    await pick(inspector, form, '游戏', /./);
    await pick(inspector, form, '检测结果', '正常');
    await pick(inspector, form, '客户店铺', /shop0001/, 'shop0001');

    // ≈ 9.2 MB: three 4 MB chunks, sent side by side (qiniu-js, 3 at a time).
    const image = png(1800, 1700, 'noise');
    expect(image.length).toBeGreaterThan(8 * MB);
    const proof = form.locator('#proofImages');
    await proof.locator('input[type=file]').setInputFiles({ name: 'cluster.png', mimeType: 'image/png', buffer: image });
    await until(() => proof.locator('.ant-upload-list-item-done img').count()).toBe(1);
    const parts = seen.filter((a) => a.method === 'PUT' && /\/uploads\/[0-9a-f]{32}\/\d+$/.test(a.path));
    expect(parts.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(parts.map((a) => a.by)), 'the chunks of one upload went to both instances').toEqual(new Set(['a', 'b']));
    const completed = answerTo(seen, 'POST', /\/uploads\/[0-9a-f]{32}$/);
    expect(completed.status).toBe(200);
    const link = await proof.locator('.ant-upload-list-item-done img').getAttribute('src');
    expect(link).toMatch(/\/upload\/files\/evidence\/proof\/.+\?e=\d+&token=/);

    await form.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect(form).toBeHidden();
    const created = inspector.locator('.ant-table-row').filter({ hasText: objWechat });
    await expect(created).toBeVisible();
    const code = ((await created.locator('[data-testid^="order-detail-"]').getAttribute('data-testid')) ?? '').replace('order-detail-', '');
    expect(code).not.toBe('');

    // The stored image, through its signed link, byte for byte from each instance and through nginx.
    const path = new URL(link!, cluster.url).pathname + new URL(link!, cluster.url).search;
    const digest = (bytes: ArrayBuffer) => createHash('sha256').update(Buffer.from(bytes)).digest('hex');
    const expected = createHash('sha256').update(image).digest('hex');
    for (const origin of [instance('a').url, instance('b').url, cluster.url]) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status, `${origin}${path}`).toBe(200);
      expect(digest(await res.arrayBuffer()), `${origin} serves the same bytes`).toBe(expected);
    }

    // The shop's new-order message: the same on both instances, and on the shop's screen.
    const after = await Promise.all(
      (['a', 'b'] as const).map((name) => direct<{ total: number }>(name, '/admin/message/unread', shopToken)),
    );
    expect(after.map((u) => u.data.total)).toEqual([before.data.total + 1, before.data.total + 1]);
    const lists = await Promise.all(
      (['a', 'b'] as const).map((name) =>
        direct<{ list: unknown[] }>(name, '/admin/message/list?type=message&page=1&pageSize=1', shopToken),
      ),
    );
    expect(JSON.stringify(lists[0]!.data.list[0])).toContain(code);
    expect(lists[1]!.data.list[0]).toEqual(lists[0]!.data.list[0]);
    // The shop's screen, its count asked of the instance that did not take the order.
    const createdBy = answerTo(seen, 'POST', '/api/admin/order/create');
    expect(createdBy.status).toBe(200);
    const shopSeen = answersOf(shop);
    await steerNext(shop, '/api/admin/message/unread', () => other(createdBy.by));
    await shop.reload();
    await until(async () => Number(await shop.getByTestId('message-badge').getAttribute('data-count'))).toBe(before.data.total + 1);
    const unread = shopSeen.filter((a) => a.path === '/api/admin/message/unread').map((a) => a.by);
    expect(unread).toContain(other(createdBy.by));
    await shop.getByTestId('message-bell').click();
    await expect(
      shop
        .getByTestId('message-box')
        .locator('[data-testid^="message-item-"]')
        .filter({ hasText: `新订单 ${code}` }),
    ).toBeVisible();
    await shop.context().close();
    await inspector.context().close();
  });

  test('scheduled jobs run once per turn across both instances', async () => {
    // Both instances poll the jobs 5 s after they start (then every minute, the retention
    // interval here); each turn of a job is claimed by one of them through its lease row.
    const leases = await query<{ name: string; holder: string }>(`select name, holder from job_leases order by name`);
    expect(leases.map((l) => l.name)).toEqual(expect.arrayContaining(['retention', 'subscription-reminders']));
    const pids = cluster.instances.map((i) => `:${i.pid}:`);
    for (const lease of leases)
      expect(
        pids.some((p) => lease.holder.includes(p)),
        `${lease.name} held by ${lease.holder}`,
      ).toBe(true);

    // The retention jobs' runs: one operation-log row per run (module system, action
    // retention), and no two runs of one job within the same minute (two processes both running
    // a turn would write two rows seconds apart).
    const rows = await query<{ path: string; created_at: string }>(
      `select path, created_at from operation_logs where module = 'system' and action = 'retention' order by created_at`,
    );
    const runs = new Map<string, number[]>();
    for (const row of rows) runs.set(row.path, [...(runs.get(row.path) ?? []), Number(row.created_at)]);
    expect([...runs.keys()].sort()).toEqual(['job:retention', 'job:retention-uploads']);
    for (const [path, times] of runs) {
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!, `${path}: runs ${i} and ${i + 1}`).toBeGreaterThan(50_000);
    }
    // The operation log screen's source shows the same runs.
    const bossToken = await signInToken(cluster.url, 'superadmin', ADMIN_PASSWORD);
    const res = await fetch(`${cluster.url}/api/admin/log/list?page=1&pageSize=100&module=system&action=retention`, {
      headers: { Authorization: `Bearer ${bossToken}` },
    });
    const listed = ((await res.json()) as { data: { list: { path: string }[] } }).data.list;
    expect(listed.map((r) => r.path).sort()).toEqual(rows.map((r) => r.path).sort());
  });

  // Last: it leaves one instance running (the global teardown ends it and the stopped one).
  test('one instance stops: nginx sends every call to the other, and none fails', async () => {
    const shop = await signIn('shop0001', DEMO_PASSWORD, '/order/inspect');
    process.kill(instance('b').pid, 'SIGTERM');
    const health = (name: Name) =>
      fetch(`${instance(name).url}/api/health`).then(
        () => 'up',
        () => 'down',
      );
    await until(() => health('b')).toBe('down');
    const seen = answersOf(shop);
    // Round robin still sends b its turns; nginx finds it refusing and asks a.
    for (let i = 0; i < 6; i++) expect(await probe()).toBe('a');
    await shop.getByTestId('search-submit').first().click();
    await until(() => seen.filter((a) => a.path === '/api/admin/order/list' && a.status === 200).length).toBeGreaterThan(0);
    await shop.reload();
    await expect(shop.getByTestId('app-layout')).toBeVisible();
    await expect(shop.locator('.ant-table-row').first()).toBeVisible();
    expect(seen.filter((a) => a.status >= 500)).toEqual([]);
    // The calls (the app's files may come from the browser's cache, with the header b sent then).
    const calls = seen.filter((a) => a.path.startsWith('/api/'));
    expect(calls.length).toBeGreaterThan(3);
    expect(calls.filter((a) => a.by !== 'a')).toEqual([]);
    await shop.context().close();
  });
});
