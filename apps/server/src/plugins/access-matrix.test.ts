import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, loginAs, type LoggedIn, type TestContext } from '../test/context.ts';

let ctx: TestContext;
const as: Record<string, LoggedIn | null> = { anonymous: null };
beforeAll(async () => {
  ctx = await createTestContext();
  for (const role of ['shop', 'inspector', 'admin', 'super_admin']) as[role] = await loginAs(ctx, role);
});
afterAll(() => ctx.destroy());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Every route of issue 3, and the roles (besides super_admin) it lets through. */
const ROUTES: [Method, string, string[]][] = [
  ['GET', '/api/admin/user/list', []],
  ['GET', '/api/admin/user/search', ['inspector', 'admin']],
  ['POST', '/api/admin/user/create', []],
  ['POST', '/api/admin/user/update', []],
  ['POST', '/api/admin/user/resetPassword', []],
  ['POST', '/api/admin/user/setUserStatus', []],
  ['GET', '/api/admin/user/delete?id=999999', []],
  ['GET', '/api/admin/user/subscriptions?userId=999999', []],
  ['POST', '/api/admin/setSubscription', []],
  ['GET', '/api/admin/cancelSubscription?userId=999999', []],
  ['GET', '/api/admin/role/list', []],
  ['GET', '/api/admin/role/all', []],
  ['POST', '/api/admin/role/create', []],
  ['POST', '/api/admin/role/update', []],
  ['GET', '/api/admin/role/delete?id=999999', []],
  ['GET', '/api/admin/dict/type/list', []],
  ['POST', '/api/admin/dict/type', []],
  ['PUT', '/api/admin/dict/type', []],
  ['DELETE', '/api/admin/dict/type/999999', []],
  ['GET', '/api/admin/dict/data/order_result', []],
  ['POST', '/api/admin/dict/data', []],
  ['PUT', '/api/admin/dict/data', []],
  ['DELETE', '/api/admin/dict/data/999999', []],
  ['GET', '/api/admin/dict/type-data/all', []],
  ['GET', '/api/admin/dict/data/tree/order_result', ['shop', 'inspector', 'admin']],
  ['GET', '/api/admin/dict/all', ['shop', 'inspector', 'admin']],
  ['GET', '/api/admin/log/list', []],
  ['GET', '/api/admin/log/detail?id=999999', []],
];

describe('who may call each system-management route', () => {
  it.each(ROUTES)('%s %s', async (method, url, alsoAllowed) => {
    const payload = method === 'POST' || method === 'PUT' ? {} : undefined;
    for (const role of ['anonymous', 'shop', 'inspector', 'admin', 'super_admin']) {
      const res = await call(ctx, method, url, { as: as[role], payload });
      const expected = role === 'anonymous' ? 401 : role === 'super_admin' || alsoAllowed.includes(role) ? 'through' : 403;
      if (expected === 'through') expect([401, 403], `${role} ${method} ${url}: ${res.msg}`).not.toContain(res.status);
      else expect(res.status, `${role} ${method} ${url}`).toBe(expected);
    }
  });
});
