// Over 300 lines: every event of the message box end to end on one seeded database.
import type { MessagePage, MessageReadResult, OrderImportResult, OrderItem, UnreadCounts } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageRow } from '../../db/schema.ts';
import { DAY_MS, HOUR_MS, nowMs } from '../../lib/time.ts';
import { call, createTestContext, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';
import { editBody, orderBody } from '../../test/orders.ts';
import { reminderJob } from '../jobs/app-jobs.ts';
import { startJobs } from '../jobs/scheduler.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { insertReturningId } from '../../db/dialect.ts';
import { notifyAll, removeOldReadMessages, sendSubscriptionReminders } from './messages.service.ts';

/**
 * The message box through the HTTP boundary: each event writes the right item to the
 * right recipients and no one else, in the reader's language; todos close when their work is
 * done; a user reads and marks only their own; the reminder job never repeats; the poll's ETag.
 */

let ctx: TestContext;
let boss: LoggedIn;
let admin: LoggedIn;
let inspector: LoggedIn;
let inspector2: LoggedIn;
let shop: LoggedIn;
let shop2: LoggedIn;

const PRICES = { defaultPrice: 1000, defaultPriceCheat: 3000, defaultPriceNotPass: 500, defaultPriceSuspect: 1500 };

beforeAll(async () => {
  ctx = await createTestContext();
  boss = await loginAs(ctx, 'super_admin');
  admin = await loginAs(ctx, 'admin');
  inspector = await loginAs(ctx, 'inspector');
  inspector2 = await loginAs(ctx, 'inspector');
  shop = await loginAs(ctx, 'shop');
  shop2 = await loginAs(ctx, 'shop');
  await ctx.db.updateTable('users').set(PRICES).where('id', 'in', [shop.id, shop2.id]).execute();
});
afterAll(() => ctx?.destroy());

async function api<T>(method: 'GET' | 'POST', url: string, as: LoggedIn, payload?: unknown, lang = 'en-US') {
  const res = await call<T>(ctx, method, url, { as, payload, headers: { 'accept-language': lang } });
  expect(res.http, `${method} ${url} answered ${res.http} ${res.msg}`).toBeLessThan(500);
  return res;
}

const newestId = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('messages')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirstOrThrow()
    ).m ?? 0,
  );
const rowsSince = async (id: number): Promise<MessageRow[]> =>
  ctx.db.selectFrom('messages').selectAll().where('id', '>', id).orderBy('id').execute();
/** Runs `act` and answers the messages it wrote. */
async function written(act: () => Promise<unknown>): Promise<MessageRow[]> {
  const before = await newestId();
  await act();
  return rowsSince(before);
}
const recipients = (rows: MessageRow[]) => rows.map((r) => `${r.userId}:${r.kind}:${r.event}`).sort();

const list = (as: LoggedIn, query = '', lang = 'en-US') => api<MessagePage>('GET', `/api/admin/message/list?${query}`, as, undefined, lang);

async function createOrder(overrides: Record<string, unknown> = {}, as: LoggedIn = inspector): Promise<OrderItem> {
  const res = await api<OrderItem>(
    'POST',
    '/api/admin/order/create',
    as,
    orderBody({ userId: shop.id, inspectorId: as.id, amount: PRICES.defaultPriceCheat }, overrides),
  );
  expect(res.status, res.msg).toBe(200);
  return res.data;
}

describe('events write the right message to the right recipients', () => {
  it('a new order: a message to its shop only, told in the reader language', async () => {
    let order: OrderItem | undefined;
    const rows = await written(async () => (order = await createOrder()));
    expect(recipients(rows)).toEqual([`${shop.id}:message:order.created`]);
    expect(rows[0]).toMatchObject({ targetType: 'order', targetId: expect.anything() });
    expect(Number(rows[0]?.targetId)).toBe(order?.id);

    const en = await list(shop, 'type=message');
    const item = en.data.list.find((m) => m.id === Number(rows[0]?.id));
    expect(item).toMatchObject({ title: `New order ${order?.code}`, read: false, target: { type: 'order', id: order?.id } });
    expect(item?.content).toContain('¥30.00');
    expect(item?.content).toContain('Cheating'); // the result's dictionary label in English (decision 0097)
    const zh = await list(shop, 'type=message', 'zh-CN');
    expect(zh.data.list.find((m) => m.id === item?.id)?.title).toBe(`新订单 ${order?.code}`);
    expect(zh.data.list.find((m) => m.id === item?.id)?.content).toContain('作弊');
    // Nobody else sees it.
    for (const other of [shop2, inspector, admin]) expect((await list(other)).data.list.some((m) => m.id === item?.id)).toBe(false);
  });

  it('a suspicious order: also a todo for the inspector who recorded it', async () => {
    const rows = await written(() => createOrder({ result: 3, amount: PRICES.defaultPriceSuspect }, inspector2));
    expect(recipients(rows)).toEqual([`${shop.id}:message:order.created`, `${inspector2.id}:todo:todo.suspicious`].sort());
  });

  it('an import: one summary per shop, a todo per suspicious row, nothing per row', async () => {
    const header = ['Target WeChat ID', 'Target name', 'Game', 'MAC address', 'Install time', 'Result', 'Client shop', "Target's shop"];
    const row = (wx: string, result: string, client: string) => [
      wx,
      'T',
      'CS2',
      'aa-bb-cc-00-00-21',
      '2026-01-02 03:04',
      result,
      client,
      'S',
    ];
    const body = [
      header,
      row('imp1', 'normal', shop.username),
      row('imp2', 'suspicious', shop.username),
      row('imp3', 'normal', shop2.username),
    ]
      .map((r) => r.join(','))
      .join('\r\n');
    const form = new FormData();
    form.append('file', new Blob([body]), 'orders.csv');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const payload = Buffer.from(await request.arrayBuffer());
    const rows = await written(async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/admin/order/import',
        headers: { ...inspector.headers, 'content-type': request.headers.get('content-type') ?? '' },
        payload,
      });
      const answer = res.json<{ status: number; data: OrderImportResult }>();
      expect(answer.status, res.body).toBe(200);
      expect(answer.data.imported).toBe(3);
    });
    expect(recipients(rows)).toEqual(
      [`${shop.id}:message:order.imported`, `${shop2.id}:message:order.imported`, `${inspector.id}:todo:todo.suspicious`].sort(),
    );
    expect(JSON.parse(rows.find((r) => r.userId === shop.id)?.params ?? '{}')).toEqual({ count: 2 });
  });

  it('a password reset by staff: a message to that user only', async () => {
    const target = await loginAs(ctx, 'shop');
    const rows = await written(async () => {
      const res = await api('POST', '/api/admin/user/resetPassword', boss, { id: target.id, newPassword: 'NewPass#1' });
      expect(res.status, res.msg).toBe(200);
    });
    expect(recipients(rows)).toEqual([`${target.id}:message:password.reset`]);
    expect(JSON.parse(rows[0]?.params ?? '{}')).toEqual({ operator: boss.username });
  });

  it('a recharge: a message to the shop with the amount and the new balance', async () => {
    const rows = await written(async () => {
      const res = await api('POST', '/api/admin/user/recharge', admin, { userId: shop2.id, amount: 12345 });
      expect(res.status, res.msg).toBe(200);
    });
    expect(recipients(rows)).toEqual([`${shop2.id}:message:balance.recharged`]);
    const item = (await list(shop2, 'type=message', 'zh-CN')).data.list.find((m) => m.id === Number(rows[0]?.id));
    expect(item).toMatchObject({ title: '充值已到账', target: { type: 'ledger', id: shop2.id } });
    expect(item?.content).toContain('¥123.45');
  });

  it('an announcement: one notice per enabled user, once', async () => {
    const disabled = await loginAs(ctx, 'shop');
    await ctx.db.updateTable('users').set({ status: 0 }).where('id', '=', disabled.id).execute();
    const enabled = await ctx.db.selectFrom('users').select('id').where('status', '=', 1).execute();
    const rows = await written(() => writeTransaction(ctx.db, (trx) => notifyAll(trx, { announcementId: 7, title: 'Maintenance' })));
    expect(rows.map((r) => r.userId).sort((a, b) => a - b)).toEqual(enabled.map((u) => u.id).sort((a, b) => a - b));
    expect(rows.every((r) => r.kind === 'notice' && r.targetType === 'announcement' && Number(r.targetId) === 7)).toBe(true);
    expect(await written(() => writeTransaction(ctx.db, (trx) => notifyAll(trx, { announcementId: 7, title: 'Maintenance' })))).toEqual([]);
    const notice = (await list(shop, 'type=notice')).data.list[0];
    expect(notice).toMatchObject({ title: 'Maintenance', type: 'notice', target: { type: 'announcement', id: 7 } });
  });
});

describe('todos close when their work is done', () => {
  const openTodos = async (user: LoggedIn, orderId: number) =>
    ctx.db
      .selectFrom('messages')
      .selectAll()
      .where('userId', '=', user.id)
      .where('targetType', '=', 'order')
      .where('targetId', '=', orderId)
      .where('kind', '=', 'todo')
      .execute();

  it('the re-check (result no longer suspicious) closes it; suspicious again opens it again', async () => {
    const order = await createOrder({ result: 3, amount: PRICES.defaultPriceSuspect });
    expect((await openTodos(inspector, order.id))[0]).toMatchObject({ doneAt: null, isRead: 0 });
    const unreadBefore = (await list(inspector)).data.unread.todo;
    // An edit that keeps it suspicious leaves it open.
    await api('POST', '/api/admin/order/update', inspector, editBody(order, { description: 'looked again' }));
    expect((await openTodos(inspector, order.id))[0]?.doneAt).toBeNull();
    const res = await api('POST', '/api/admin/order/update', inspector, editBody(order, { result: 0, amount: PRICES.defaultPrice }));
    expect(res.status, res.msg).toBe(200);
    const [todo] = await openTodos(inspector, order.id);
    expect(todo?.doneAt).not.toBeNull();
    expect(todo?.isRead).toBe(1);
    const page = await list(inspector, 'type=todo&read=read');
    expect(page.data.list.find((m) => m.id === Number(todo?.id))?.doneTime).not.toBeNull();
    expect(page.data.unread.todo).toBe(unreadBefore - 1);

    await api('POST', '/api/admin/order/update', inspector, editBody(order, { result: 3, amount: PRICES.defaultPriceSuspect }));
    const again = await openTodos(inspector, order.id);
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ doneAt: null, isRead: 0 });
  });

  it('deleting the order closes it', async () => {
    const order = await createOrder({ result: 3, amount: PRICES.defaultPriceSuspect });
    const res = await api('POST', '/api/admin/order/delete', admin, { ids: [order.id] });
    expect(res.status, res.msg).toBe(200);
    expect((await openTodos(inspector, order.id))[0]?.doneAt).not.toBeNull();
  });

  it('a renewal closes the staff renewal todos of that shop, and only those', async () => {
    const ending = await loginAs(ctx, 'shop');
    const still = await loginAs(ctx, 'shop');
    const now = nowMs();
    await ctx.db
      .updateTable('users')
      .set({ serviceEndAt: now + 2 * DAY_MS })
      .where('id', 'in', [ending.id, still.id])
      .execute();
    await sendSubscriptionReminders(ctx.db, now);
    const res = await api('POST', '/api/admin/setSubscription', boss, { userId: ending.id, type: 'monthly' });
    expect(res.status, res.msg).toBe(200);
    const todos = await ctx.db
      .selectFrom('messages')
      .select(['targetId', 'doneAt'])
      .where('kind', '=', 'todo')
      .where('targetType', '=', 'subscription')
      .where('targetId', 'in', [ending.id, still.id])
      .execute();
    expect(todos.length).toBeGreaterThan(0);
    for (const t of todos) expect(t.doneAt === null).toBe(Number(t.targetId) === still.id);
  });
});

describe('the reminder job', () => {
  it('reminds a shop ending within 7 days and one ended, with a renewal todo per enabled user who may renew, never twice', async () => {
    const now = nowMs();
    const soon = await loginAs(ctx, 'shop');
    const ended = await loginAs(ctx, 'shop');
    const later = await loginAs(ctx, 'shop');
    await ctx.db
      .updateTable('users')
      .set({ serviceEndAt: now + 3 * DAY_MS })
      .where('id', '=', soon.id)
      .execute();
    await ctx.db
      .updateTable('users')
      .set({ serviceEndAt: now - HOUR_MS })
      .where('id', '=', ended.id)
      .execute();
    await ctx.db
      .updateTable('users')
      .set({ serviceEndAt: now + 30 * DAY_MS })
      .where('id', '=', later.id)
      .execute();
    // Those who may renew: the super admins (the seeded one and ours); not the admin, whose role may not.
    const staff = await ctx.db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.roleId')
      .select('users.id')
      .where('roles.name', '=', 'super_admin')
      .where('users.status', '=', 1)
      .execute();
    expect(staff.map((s) => s.id)).toContain(boss.id);

    // Through the scheduler, as the app runs it.
    const runner = startJobs({ db: ctx.db, jobs: [reminderJob(ctx.db)], firstPollMs: 3_600_000, now: () => now });
    const rows = await written(() => runner.tick());
    await runner.stop();
    const mine = rows.filter((r) => [soon.id, ended.id, later.id].includes(Number(r.targetId)));
    expect(recipients(mine)).toEqual(
      [
        `${soon.id}:message:subscription.expiring`,
        `${ended.id}:message:subscription.expired`,
        ...staff.flatMap((s) => [`${s.id}:todo:todo.renewal`, `${s.id}:todo:todo.renewal`]),
      ].sort(),
    );
    // Again (another turn, another process): nothing new.
    expect(await written(() => sendSubscriptionReminders(ctx.db, now + HOUR_MS))).toEqual([]);
    expect(await sendSubscriptionReminders(ctx.db, now + 2 * HOUR_MS)).toBe(0);
    // Once "ending soon" has become "ended", the shop gets that one message, the staff nothing new.
    const turned = await written(() => sendSubscriptionReminders(ctx.db, now + 4 * DAY_MS));
    expect(recipients(turned.filter((r) => Number(r.targetId) === soon.id))).toEqual([`${soon.id}:message:subscription.expired`]);
    const item = (await list(soon, 'type=message', 'zh-CN')).data.list[0];
    expect(item?.title).toBe('服务已到期');
  });
});

describe('reading and marking', () => {
  it('lists by kind and read state, newest first, paged, with the unread counts', async () => {
    const all = await list(shop, 'type=message&pageSize=100');
    expect(all.status).toBe(200);
    const ids = all.data.list.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.data.total).toBe(all.data.list.length);
    const unread = await list(shop, 'type=message&read=unread&pageSize=100');
    expect(unread.data.total).toBe(all.data.unread.message);
    expect(unread.data.list.every((m) => !m.read && m.type === 'message')).toBe(true);
    const page2 = await list(shop, 'type=message&page=2&pageSize=1');
    expect(page2.data.list.map((m) => m.id)).toEqual([ids[1]]);
    const everything = await list(shop, 'pageSize=100');
    expect(new Set(everything.data.list.map((m) => m.type))).toEqual(new Set(['message', 'notice']));
    expect(everything.data.unread.total).toBe(everything.data.unread.message + everything.data.unread.notice + everything.data.unread.todo);
  });

  it('refuses bad filters with a 400 naming the field', async () => {
    const res = await list(shop, 'type=mail');
    expect(res.http).toBe(400);
    expect(res.msg).toContain('type');
  });

  it('marks only your own; a foreign id refuses the whole call and changes nothing', async () => {
    const mine = (await list(shop, 'read=unread&pageSize=100')).data;
    const theirs = (await list(shop2, 'read=unread&pageSize=100')).data;
    const [a, b] = mine.list;
    const [foreign] = theirs.list;
    expect(a && b && foreign).toBeTruthy();
    const refused = await api<MessageReadResult>('POST', '/api/admin/message/read', shop, { ids: [a?.id, foreign?.id] });
    expect(refused.http).toBe(404);
    expect(refused.msg).toContain(`#${foreign?.id}`);
    expect((await list(shop, 'read=unread&pageSize=100')).data.unread).toEqual(mine.unread);
    expect((await list(shop2, 'read=unread&pageSize=100')).data.unread).toEqual(theirs.unread);
    const missing = await api('POST', '/api/admin/message/read', shop, { ids: [2_000_000_000] });
    expect(missing.http).toBe(404);

    const done = await api<MessageReadResult>('POST', '/api/admin/message/read', shop, { ids: [a?.id, b?.id, a?.id] });
    expect(done.status, done.msg).toBe(200);
    expect(done.data.marked).toBe(2);
    expect(done.data.unread.total).toBe(mine.unread.total - 2);
    // Again: already read, nothing more to mark.
    expect((await api<MessageReadResult>('POST', '/api/admin/message/read', shop, { ids: [a?.id] })).data.marked).toBe(0);
    expect((await list(shop2, 'read=unread&pageSize=100')).data.unread).toEqual(theirs.unread);
    expect((await api('POST', '/api/admin/message/read', shop, { ids: [] })).http).toBe(400);
  });

  it('answers 401 without a session', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/message/list' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/message/unread' })).statusCode).toBe(401);
  });
});

describe('GET /api/admin/message/unread (the poll)', () => {
  const poll = (as: LoggedIn, etag?: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/admin/message/unread',
      headers: { ...as.headers, ...(etag === undefined ? {} : { 'if-none-match': etag }) },
    });

  it('answers the counts with an ETag, 304 while nothing changed, 200 when an item arrives or is read', async () => {
    const first = await poll(shop2);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const counts = first.json<{ data: UnreadCounts }>().data;
    expect(counts.total).toBe(counts.message + counts.notice + counts.todo);
    const same = await poll(shop2, etag);
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    // Another user's ETag never matches this user's box.
    expect((await poll(shop, etag)).statusCode).toBe(200);

    await api('POST', '/api/admin/user/recharge', admin, { userId: shop2.id, amount: 100 });
    const arrived = await poll(shop2, etag);
    expect(arrived.statusCode).toBe(200);
    expect(arrived.json<{ data: UnreadCounts }>().data.message).toBe(counts.message + 1);
    const etag2 = arrived.headers.etag as string;
    expect(etag2).not.toBe(etag);

    const newest = (await list(shop2, 'read=unread&type=message')).data.list[0];
    await api('POST', '/api/admin/message/read', shop2, { ids: [newest?.id] });
    const read = await poll(shop2, etag2);
    expect(read.statusCode).toBe(200);
    expect(read.json<{ data: UnreadCounts }>().data.message).toBe(counts.message);
  });
});

describe('retention (the job calls this, decision 0110)', () => {
  it('removes the read messages created before the cut-off, batch by batch; unread ones and open todos stay whatever their age', async () => {
    const cut = Date.UTC(2020, 0, 1); // before every message the other tests write
    const add = (kind: 'message' | 'notice' | 'todo', isRead: number, createdAt: number, done = false) =>
      insertReturningId(ctx.db, 'messages', {
        userId: shop2.id,
        kind,
        event: 'order.created',
        params: '{}',
        targetType: null,
        targetId: null,
        isRead,
        readAt: isRead === 1 ? createdAt + HOUR_MS : null,
        doneAt: done ? createdAt + HOUR_MS : null,
        dedupeKey: null,
        createdAt,
      });
    const gone = [await add('message', 1, cut - 10 * DAY_MS), await add('notice', 1, cut - 1), await add('todo', 1, cut - DAY_MS, true)];
    const kept = [
      await add('message', 1, cut),
      await add('message', 0, cut - 300 * DAY_MS),
      await add('todo', 0, cut - 120 * DAY_MS),
      await add('todo', 1, cut - 120 * DAY_MS),
    ];
    const unreadBefore = (await api<UnreadCounts>('GET', '/api/admin/message/unread', shop2)).data;

    expect(await removeOldReadMessages(ctx.db, cut, 2)).toBe(3);
    const left = (await ctx.db.selectFrom('messages').select('id').where('userId', '=', shop2.id).execute()).map((r) => Number(r.id));
    for (const id of gone) expect(left).not.toContain(id);
    for (const id of kept) expect(left).toContain(id);
    expect((await api<UnreadCounts>('GET', '/api/admin/message/unread', shop2)).data).toEqual(unreadBefore);
    expect(await removeOldReadMessages(ctx.db, cut, 2)).toBe(0);
  });
});
