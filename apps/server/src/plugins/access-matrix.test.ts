import { endpointList, fillPath, pathParamNames, SEEDED_ROLE_PERMISSIONS, type Endpoint } from '@clearplay/contract';
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
const ROLES = ['shop', 'inspector', 'admin'] as const;

/** The roles (besides super_admin) a declaration lets through, by the seeded roles' permissions. */
function rolesLetThrough({ access: { permission } }: Endpoint): string[] {
  if (permission === undefined) return [...ROLES];
  const anyOf: readonly string[] = typeof permission === 'string' ? [permission] : permission;
  return ROLES.filter((role) => SEEDED_ROLE_PERMISSIONS[role].some((held) => anyOf.includes(held)));
}

/** Every declared signed-in endpoint (decision 0096), each path parameter 999999. */
const DECLARED: [Method, string, string[]][] = endpointList()
  .filter(({ endpoint }) => endpoint.access.auth === 'user')
  .map(({ endpoint }) => {
    const params = Object.fromEntries(pathParamNames(endpoint.path).map((name) => [name, 999999]));
    return [endpoint.method, `/api${fillPath(endpoint.path, params)}`, rolesLetThrough(endpoint)];
  });

/** The system-management routes not yet declared, and the roles (besides super_admin) each lets through. */
const UNDECLARED: [Method, string, string[]][] = [
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
  ['GET', '/api/admin/role/all', []],
];

describe('who may call each system-management route', () => {
  it.each([...DECLARED, ...UNDECLARED])('%s %s', async (method, url, alsoAllowed) => {
    const payload = method === 'POST' || method === 'PUT' ? {} : undefined;
    for (const role of ['anonymous', 'shop', 'inspector', 'admin', 'super_admin']) {
      const res = await call(ctx, method, url, { as: as[role], payload });
      const expected = role === 'anonymous' ? 401 : role === 'super_admin' || alsoAllowed.includes(role) ? 'through' : 403;
      if (expected === 'through') expect([401, 403], `${role} ${method} ${url}: ${res.msg}`).not.toContain(res.status);
      else expect(res.status, `${role} ${method} ${url}`).toBe(expected);
    }
  });
});
