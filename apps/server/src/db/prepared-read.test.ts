import type { KyselyPlugin, PluginTransformResultArgs, QueryResult, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, testDbKind, type TestContext } from '../test/context.ts';
import { preparedRead } from './prepared-read.ts';
import { writeTransaction } from './write-transaction.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.destroy());

const userByName = preparedRead(
  (db, username: string) => db.selectFrom('users').select(['id', 'username', 'nickname', 'roleId']).where('username', '=', username),
  ['<username>'],
);

describe('preparedRead', () => {
  it('answers the same camel-cased row outside and inside a transaction, or none', async () => {
    const user = await createUser(ctx, 'shop');
    const outside = await userByName(ctx.db, user.username);
    expect(outside).toEqual({ id: user.id, username: user.username, nickname: 'Test shop', roleId: user.roleId });
    const inside = await ctx.db.transaction().execute(async (trx) => userByName(trx, user.username));
    expect(inside).toEqual(outside);
    expect(await userByName(ctx.db, 'nobody_at_all')).toBeUndefined();
    // Compiled once, run with each call's own value.
    expect((await userByName(ctx.db, 'superadmin'))?.username).toBe('superadmin');
    // On a SQLite file, once the columns are named, the row comes at once (decision 0071); elsewhere as a promise.
    const again = userByName(ctx.db, user.username);
    if (testDbKind() === 'sqlite') expect(again).toEqual(outside);
    else expect(again).toBeInstanceOf(Promise);
    expect(await again).toEqual(outside);
  });

  it('reads what is committed: never a write still in progress, and a commit at once', async () => {
    const user = await createUser(ctx, 'shop');
    await writeTransaction(ctx.db, async (trx) => {
      await trx.updateTable('users').set({ nickname: 'Renamed' }).where('id', '=', user.id).execute();
      // Answered while the write transaction is open, without waiting for it.
      expect((await userByName(ctx.db, user.username))?.nickname).toBe('Test shop');
    });
    expect((await userByName(ctx.db, user.username))?.nickname).toBe('Renamed');
  });

  it('answers what the plugins make of a row also when they change values, not only names', async () => {
    const user = await createUser(ctx, 'shop');
    const shouting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => ({
        ...result,
        rows: result.rows.map((row) =>
          Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? v.toUpperCase() : v])),
        ),
      }),
    };
    const loud = ctx.db.withPlugin(shouting);
    const expected = await loud
      .selectFrom('users')
      .select(['id', 'username', 'nickname', 'roleId'])
      .where('username', '=', user.username)
      .executeTakeFirst();
    expect(expected?.nickname).toBe('TEST SHOP');
    expect(await userByName(loud, user.username)).toEqual(expected);
    // The plain database still answers as it did.
    expect((await userByName(ctx.db, user.username))?.nickname).toBe('Test shop');
  });

  it('refuses a query that binds other values than its parameters', async () => {
    const bindsMore = preparedRead(
      (db, username: string) => db.selectFrom('users').select('id').where('username', '=', username).where('status', '=', 1),
      ['<username>'],
    );
    // At the first call, which compiles it (thrown, not rejected: a read may answer at once).
    expect(() => bindsMore(ctx.db, 'superadmin')).toThrow(/must bind exactly its 1 parameter/);
  });
});
