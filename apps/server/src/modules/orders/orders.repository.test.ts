import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, type TestContext } from '../../test/context.ts';
import * as ledgerRepo from '../ledger/ledger.repository.ts';
import { insertOrdersWithFreshCodes } from './orders.repository.ts';
import { orderImageUrls } from './orders.service.ts';

/**
 * The bulk writes of an import on each database (PostgreSQL: column arrays; SQLite: ON CONFLICT
 * … RETURNING; MySQL: codes looked up first): a code that is taken already leaves its row out
 * and the rest are written with their ids; ledger entries keep every value, nulls included.
 */
let ctx: TestContext;
let shop: number;
let inspector: number;

beforeAll(async () => {
  ctx = await createTestContext();
  shop = (await createUser(ctx, 'shop')).id;
  inspector = (await createUser(ctx, 'inspector')).id;
});
afterAll(() => ctx.destroy());

const row = (code: string, n: number) => ({
  code,
  objWechat: `wx_bulk_${n}`,
  objWechatName: `名字 "${n}" \\ {x} 🎮`,
  gameName: 'CS2',
  mac: 'AA-BB-CC-DD-EE-0F',
  installationAt: 1_767_000_000_000 + n,
  result: n % 4,
  userId: shop,
  objClientName: "O'Shop, {1,2}",
  inspectorId: inspector,
  amount: 1000 + n,
  ifPublic: n % 2,
  ifChangedMac: 0,
  description: n === 1 ? '' : `line1\nline2 ${n}`,
  certImages: '',
  proofImages: '',
  personCertImages: '',
  createdBy: inspector,
  createdAt: 1_768_000_000_000,
  updatedAt: 1_768_000_000_000,
});

describe('bulk order writes', () => {
  it('writes the rows whose code is free, answers their ids, and leaves out a row whose code is taken', async () => {
    const first = await insertOrdersWithFreshCodes(ctx.db, [row('BULKAAA1', 1)]);
    expect([...first.keys()]).toEqual(['BULKAAA1']);

    const again = await insertOrdersWithFreshCodes(ctx.db, [row('BULKAAA2', 2), row('BULKAAA1', 99), row('BULKAAA3', 3)]);
    expect([...again.keys()].sort()).toEqual(['BULKAAA2', 'BULKAAA3']);

    const stored = await ctx.db.selectFrom('orders').selectAll().where('code', 'like', 'BULK%').orderBy('code').execute();
    expect(stored.map((o) => [o.code, Number(o.id)])).toEqual([
      ['BULKAAA1', first.get('BULKAAA1')],
      ['BULKAAA2', again.get('BULKAAA2')],
      ['BULKAAA3', again.get('BULKAAA3')],
    ]);
    // the taken code kept its first row; the values went in as given
    expect(stored[0]).toMatchObject({ objWechat: 'wx_bulk_1', amount: 1001, description: '' });
    expect(stored[1]).toMatchObject({
      objWechatName: '名字 "2" \\ {x} 🎮',
      objClientName: "O'Shop, {1,2}",
      description: 'line1\nline2 2',
      installationAt: 1_767_000_000_002,
      ifPublic: 0,
    });
    expect(stored[2]).toMatchObject({ result: 3, ifPublic: 1, amount: 1003 });
  });

  it('writes ledger entries in bulk with their nulls', async () => {
    const entries = [0, 1, 2].map((n) => ({
      userId: shop,
      kind: 'charge' as const,
      amount: -100 * (n + 1),
      balanceAfter: -100 * (n + 1),
      orderId: n === 1 ? null : 7 + n,
      remark: n === 2 ? '' : `order {"${n}"}`,
      operator: 'bulk',
      operatorId: n === 0 ? null : inspector,
      createdAt: 1_768_000_000_000 + n,
    }));
    await ledgerRepo.insertEntries(ctx.db, entries);
    const stored = await ctx.db.selectFrom('ledgerEntries').selectAll().where('operator', '=', 'bulk').orderBy('createdAt').execute();
    expect(
      stored.map(({ id: _id, ...rest }) => ({
        ...rest,
        amount: Number(rest.amount),
        balanceAfter: Number(rest.balanceAfter),
        orderId: rest.orderId === null ? null : Number(rest.orderId),
        createdAt: Number(rest.createdAt),
      })),
    ).toEqual(entries);
  });
});

describe('the image URLs the orders name (the upload retention sweep reads them, decision 0110)', () => {
  it('answers every non-empty URL of the three image columns, a page of orders at a time, in id order', async () => {
    const images = [
      { certImages: '/upload/files/evidence/cert/a,/upload/files/evidence/cert/b', proofImages: '', personCertImages: '' },
      { certImages: '', proofImages: '', personCertImages: '' },
      { certImages: '', proofImages: 'http://shop.example/upload/files/evidence/proof/c', personCertImages: 'https://x.example/d.png?v=2' },
    ];
    const ids = await insertOrdersWithFreshCodes(
      ctx.db,
      images.map((columns, i) => ({ ...row(`IMGURL0${i}`, 10 + i), ...columns })),
    );
    expect(ids.size).toBe(3);
    const all = await ctx.db.selectFrom('orders').select(['id', 'certImages', 'proofImages', 'personCertImages']).orderBy('id').execute();
    const pages: string[][] = [];
    for await (const page of orderImageUrls(ctx.db, 2)) pages.push(page);
    expect(pages).toHaveLength(Math.ceil(all.length / 2));
    const expected = (orders: typeof all) =>
      orders.flatMap((o) => [o.certImages, o.proofImages, o.personCertImages].flatMap((list) => list.split(',')).filter((u) => u !== ''));
    expect(pages).toEqual(Array.from({ length: pages.length }, (_, i) => expected(all.slice(2 * i, 2 * i + 2))));
    expect(pages.flat().slice(-4)).toEqual([
      '/upload/files/evidence/cert/a',
      '/upload/files/evidence/cert/b',
      'http://shop.example/upload/files/evidence/proof/c',
      'https://x.example/d.png?v=2',
    ]);
  });
});
