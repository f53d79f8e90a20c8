import type {
  DictDataItem,
  LogItem,
  MessagePage,
  MonitorData,
  OrderItem,
  PublicCertificate,
  PublicLinksData,
  PublicLookupData,
  PublicPricesData,
} from '@clearplay/contract';
import { LINKSTORE_DICT, PUBLIC_PRICE_DICT } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestContext,
  flushLogs,
  importFile,
  loginAs,
  loginWith,
  TEST_PASSWORD,
  type LoggedIn,
  type TestContext,
} from './test/context.ts';
import { orderBody } from './test/orders.ts';
import * as m0018 from './db/migrations/0018_text_in_reader_language.ts';

/**
 * Text in the other language (decision 0097): text the server writes
 * (messages, operation-log lines) is told when it is read, in the reader's language, with a
 * dictionary value shown by its label in that language; the public pages tell game names,
 * price notes and link descriptions in the reader's language.
 */

let ctx: TestContext;
let boss: LoggedIn;
let inspector: LoggedIn;
let shop: LoggedIn;
let order: OrderItem;

const PRICES = { defaultPrice: 1000, defaultPriceCheat: 3000, defaultPriceNotPass: 500, defaultPriceSuspect: 1500 };
const EN = { 'accept-language': 'en-US' };
const ZH = { 'accept-language': 'zh-CN' };

beforeAll(async () => {
  ctx = await createTestContext();
  boss = await loginAs(ctx, 'super_admin');
  inspector = await loginAs(ctx, 'inspector');
  shop = await loginAs(ctx, 'shop');
  await ctx.db.updateTable('users').set(PRICES).where('id', '=', shop.id).execute();
  const res = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
    as: inspector,
    payload: orderBody(
      { userId: shop.id, inspectorId: inspector.id, amount: PRICES.defaultPriceSuspect },
      { gameName: '英雄联盟', result: 3, objWechat: 'wxid_reader_lang_01', ifPublic: 1 },
    ),
  });
  expect(res.status, res.msg).toBe(200);
  order = res.data;
});
afterAll(() => ctx?.destroy());

const messages = async (as: LoggedIn, headers: Record<string, string>, type = 'message') =>
  (await call<MessagePage>(ctx, 'GET', `/api/admin/message/list?type=${type}&pageSize=50`, { as, headers })).data.list;

describe('messages are told in the reader language', () => {
  it("a shop reading English sees the game's English label in the order notice", async () => {
    const item = (await messages(shop, EN)).find((m) => m.event === 'order.created');
    expect(item?.content).toContain('League of Legends');
    expect(item?.content).not.toContain('英雄联盟');
  });

  it("a shop reading Chinese sees the game's Chinese label in the same notice", async () => {
    const item = (await messages(shop, ZH)).find((m) => m.event === 'order.created');
    expect(item?.content).toContain('英雄联盟');
    expect(item?.content).toContain('可疑');
  });

  it("an inspector reading English sees the game's English label in the re-check todo", async () => {
    const item = (await messages(inspector, EN, 'todo')).find((m) => m.event === 'todo.suspicious');
    expect(item?.content).toContain('League of Legends');
  });

  it('the stored parameters hold the game value, never a label', async () => {
    const rows = await ctx.db.selectFrom('messages').select(['event', 'params']).where('userId', '=', shop.id).execute();
    const params = JSON.parse(rows.find((r) => r.event === 'order.created')?.params ?? '{}') as Record<string, unknown>;
    expect(params).toMatchObject({ game: '英雄联盟', result: 3 });
  });

  it('a game renamed in the dictionary is told by its new English label in messages already written', async () => {
    await ctx.db.updateTable('dictData').set({ labelEn: 'LoL' }).where('typeCode', '=', 'game').where('value', '=', '英雄联盟').execute();
    try {
      const item = (await messages(shop, EN)).find((m) => m.event === 'order.created');
      expect(item?.content).toContain('LoL');
    } finally {
      await ctx.db
        .updateTable('dictData')
        .set({ labelEn: 'League of Legends' })
        .where('typeCode', '=', 'game')
        .where('value', '=', '英雄联盟')
        .execute();
    }
  });
});

const logs = async (headers: Record<string, string>, query: string) =>
  (await call<{ list: LogItem[] }>(ctx, 'GET', `/api/admin/log/list?pageSize=50&${query}`, { as: boss, headers })).data.list;

describe('the operation log is told in the reader language', () => {
  beforeAll(async () => {
    const csv = [
      ['Target WeChat ID', 'Target name', 'Game', 'MAC address', 'Install time', 'Result', 'Client shop', "Target's shop"],
      ['wxid_reader_lang_02', 'T', '英雄联盟', 'aa-bb-cc-00-00-31', '2026-01-02 03:04', 'normal', shop.username, 'S'],
    ]
      .map((r) => r.join(','))
      .join('\r\n');
    const res = await importFile(ctx, inspector, csv, 'orders.csv');
    expect(res.statusCode, res.body).toBe(200);
    await loginWith(ctx, shop.username, TEST_PASSWORD);
    // A refused sign-in made from an English browser.
    await call(ctx, 'POST', '/api/admin/user/login', {
      payload: { username: inspector.username, password: 'wrong-password-1' },
      headers: EN,
    });
    await flushLogs(ctx);
  });

  it("a refused call's error is told in the reader language, whatever the caller's language was", async () => {
    const zh = (await logs(ZH, 'module=auth&action=login&status=failed')).find((l) => l.operator === inspector.username);
    expect(zh?.errorMsg).toBe('用户名或密码错误');
    expect(zh?.content).toBe(`${inspector.username} 登录`);
    const en = (await logs(EN, 'module=auth&action=login&status=failed')).find((l) => l.operator === inspector.username);
    expect(en?.errorMsg).toBe('Incorrect username or password');
  });

  it('an import read in Chinese is told in Chinese', async () => {
    const [row] = await logs(ZH, 'module=order&action=import');
    expect(row?.content).toMatch(/导入/);
    expect(row?.content).toContain('orders.csv');
    expect(row?.content).not.toMatch(/order import|rows|imported|rejected/);
  });

  it('an import read in English is told in English', async () => {
    const [row] = await logs(EN, 'module=order&action=import');
    expect(row?.content).toMatch(/import/i);
    expect(row?.content).toContain('orders.csv');
    expect(row?.content).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('a login read in Chinese is told in Chinese', async () => {
    const row = (await logs(ZH, 'module=auth&action=login')).find((l) => l.content.includes(shop.username));
    expect(row?.content).toMatch(/登录/);
    expect(row?.content).not.toMatch(/^login /);
  });

  it('a login read in English is told in English', async () => {
    const row = (await logs(EN, 'module=auth&action=login')).find((l) => l.content.includes(shop.username));
    expect(row?.content).toMatch(/sign|log/i);
    expect(row?.content).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('an order recorded is told with its result and game in the reader language', async () => {
    const zh = (await logs(ZH, 'module=order&action=create')).find((l) => l.content.includes(order.code));
    expect(zh?.content).toContain('可疑');
    expect(zh?.content).toContain('英雄联盟');
    const en = (await logs(EN, 'module=order&action=create')).find((l) => l.content.includes(order.code));
    expect(en?.content).toContain('Suspicious');
    expect(en?.content).toContain('League of Legends');
  });

  it('a dictionary entry created is named by its label in the reader language', async () => {
    const res = await call<DictDataItem>(ctx, 'POST', '/api/admin/dict/data', {
      as: boss,
      payload: { typeCode: 'game', label: '晨星对决', labelEn: 'Morning Star Duel', value: 'morning-star-duel' },
    });
    expect(res.status).toBe(200);
    await flushLogs(ctx);
    const en = (await logs(EN, 'page=1')).find((l) => l.content.includes('morning-star-duel'));
    expect(en?.content).toBe(`Dictionary entry game/morning-star-duel "Morning Star Duel" (#${res.data.id}): created`);
    const zh = (await logs(ZH, 'page=1')).find((l) => l.content.includes('morning-star-duel'));
    expect(zh?.content).toContain('“晨星对决”');
    expect(zh?.content).not.toContain('Morning Star Duel');
  });

  it("the monitor's latest imports are told in the reader language", async () => {
    const monitor = async (headers: Record<string, string>) =>
      (await call<MonitorData>(ctx, 'GET', '/api/admin/monitor', { as: boss, headers })).data.latestImports;
    expect((await monitor(ZH))[0]?.content).toMatch(/^订单导入“orders\.csv”/);
    expect((await monitor(EN))[0]?.content).toMatch(/^Order import "orders\.csv"/);
  });

  it('a row written as free text before this change is shown as it was written', async () => {
    await ctx.db
      .insertInto('operationLogs')
      .values({
        module: 'order',
        action: 'import',
        content: 'order import "old.csv": 3 rows, 3 imported, 0 rejected',
        operator: 'someone',
        operatorId: null,
        status: 1,
        ip: '127.0.0.1',
        method: 'POST',
        path: '/api/admin/order/import',
        durationMs: 1,
        errorMsg: '',
        userAgent: '',
        payload: '',
        details: null,
        createdAt: Date.now() + 60_000,
      })
      .execute();
    const [row] = await logs(ZH, 'module=order&action=import');
    expect(row?.content).toBe('order import "old.csv": 3 rows, 3 imported, 0 rejected');
  });
});

const anon = async <T>(url: string, headers: Record<string, string>) => (await call<T>(ctx, 'GET', url, { headers })).data;

describe('the public pages are told in the reader language', () => {
  beforeAll(async () => {
    const add = (payload: Record<string, unknown>) => call<DictDataItem>(ctx, 'POST', '/api/admin/dict/data', { as: boss, payload });
    const price = await add({
      typeCode: PUBLIC_PRICE_DICT,
      label: '作弊',
      labelEn: 'Cheating',
      value: '5000',
      remark: '发现外挂，记录证据',
      remarkEn: 'Cheat software found; the evidence is recorded',
    });
    expect(price.status, price.msg).toBe(200);
    const noEnglish = await add({ typeCode: PUBLIC_PRICE_DICT, label: '正常', labelEn: 'Normal', value: '3000', remark: '未发现问题' });
    expect(noEnglish.status, noEnglish.msg).toBe(200);
    const link = await add({
      typeCode: LINKSTORE_DICT,
      label: '检测工具',
      labelEn: 'Inspection tools',
      value: 'https://example.com/tools',
      remark: '检测员常用的系统工具',
      remarkEn: 'System tools inspectors use',
    });
    expect(link.status, link.msg).toBe(200);
  });

  it("an English reader of the look-up sees the game's English name", async () => {
    const data = await anon<PublicLookupData>('/api/public/lookup?chatId=wxid_reader_lang_01', EN);
    expect(data.list[0]?.gameName).toBe('League of Legends');
    const zh = await anon<PublicLookupData>('/api/public/lookup?chatId=wxid_reader_lang_01', ZH);
    expect(zh.list[0]?.gameName).toBe('英雄联盟');
  });

  it("an English reader of the certificate sees the game's English name", async () => {
    const data = await anon<PublicCertificate>(`/api/public/verify/${order.code}`, EN);
    expect(data.gameName).toBe('League of Legends');
    expect((await anon<PublicCertificate>(`/api/public/verify/${order.code}`, ZH)).gameName).toBe('英雄联盟');
  });

  it('an English reader of the prices sees the English note, or the Chinese one when none was written', async () => {
    const en = await anon<PublicPricesData>('/api/public/prices', EN);
    expect(en.list.find((p) => p.price === 5000)?.remark).toBe('Cheat software found; the evidence is recorded');
    expect(en.list.find((p) => p.price === 3000)?.remark).toBe('未发现问题');
    const zh = await anon<PublicPricesData>('/api/public/prices', ZH);
    expect(zh.list.find((p) => p.price === 5000)?.remark).toBe('发现外挂，记录证据');
  });

  it("an English reader of the link store sees the link's English description", async () => {
    const en = await anon<PublicLinksData>('/api/public/links', EN);
    expect(en.groups.find((g) => g.url === 'https://example.com/tools')?.description).toBe('System tools inspectors use');
    const zh = await anon<PublicLinksData>('/api/public/links', ZH);
    expect(zh.groups.find((g) => g.url === 'https://example.com/tools')?.description).toBe('检测员常用的系统工具');
  });

  it('the English note is kept, changed and cleared on the dictionary screen like the English label', async () => {
    const list = await call<{ list: DictDataItem[] }>(ctx, 'GET', `/api/admin/dict/data/${PUBLIC_PRICE_DICT}?pageSize=50`, { as: boss });
    const item = list.data.list.find((d) => d.value === '5000');
    expect(item?.remarkEn).toBe('Cheat software found; the evidence is recorded');
    const cleared = await call<DictDataItem>(ctx, 'PUT', '/api/admin/dict/data', {
      as: boss,
      payload: { id: item?.id, typeCode: PUBLIC_PRICE_DICT, label: '作弊', value: '5000', remark: '发现外挂，记录证据', remarkEn: '' },
    });
    expect(cleared.status, cleared.msg).toBe(200);
    expect(cleared.data.remarkEn).toBe('');
    const en = await anon<PublicPricesData>('/api/public/prices', EN);
    expect(en.list.find((p) => p.price === 5000)?.remark).toBe('发现外挂，记录证据');
  });
});

describe('migration 0018 on a database made before it', () => {
  it("gives the demo's published notes their English text, and leaves a rewritten note without one", async () => {
    const raw = ctx.db.withoutPlugins();
    await m0018.down(raw);
    const entry = (typeCode: string, value: string, remark: string) => ({
      type_code: typeCode,
      label: value,
      value,
      sort: 9,
      css_class: '',
      list_class: 'default',
      is_default: 0,
      parent_id: null,
      status: 1,
      remark,
      created_at: Date.now(),
    });
    await raw
      .insertInto('dict_data' as never)
      .values([
        entry(PUBLIC_PRICE_DICT, '4000', '存在可疑项，建议复检'),
        entry(LINKSTORE_DICT, 'https://gamesafe.qq.com/', '自己写的说明'),
      ] as never)
      .execute();
    await m0018.up(raw);
    const rows = await ctx.db
      .selectFrom('dictData')
      .select(['value', 'remarkEn'])
      .where('value', 'in', ['4000', 'https://gamesafe.qq.com/'])
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.value, r.remarkEn]))).toEqual({
      '4000': 'Something suspicious was found; a re-check is advised',
      'https://gamesafe.qq.com/': '',
    });
    // The log rows written before it have no event: they are shown as they were written.
    const [row] = await logs(ZH, 'module=auth&action=login');
    expect(row?.content).toMatch(/^Sign-in by /);
  });
});
