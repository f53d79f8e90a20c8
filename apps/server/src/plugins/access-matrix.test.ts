import { endpointList, fillPath, pathParamNames, SEEDED_ROLE_PERMISSIONS, sessionEndpoints, type Endpoint } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, loginAs, type LoggedIn, type TestContext } from '../test/context.ts';

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

/**
 * Every declared signed-in endpoint (decision 0096), each path parameter 999999; but logout,
 * which would end the session the following rows go with (auth.test.ts covers it).
 */
const DECLARED: [Method, string, string[]][] = endpointList()
  .filter(({ endpoint }) => endpoint.access.auth === 'user' && endpoint !== sessionEndpoints.logout)
  .map(({ endpoint }) => {
    const params = Object.fromEntries(pathParamNames(endpoint.path).map((name) => [name, 999999]));
    return [endpoint.method, `/api${fillPath(endpoint.path, params)}`, rolesLetThrough(endpoint)];
  });

/** A call's envelope status, or for a file answer (export, ZIP, template) its HTTP status. */
async function statusOf(method: Method, url: string, role: string, payload: object | undefined): Promise<{ status: number; msg: string }> {
  const res = await ctx.app.inject({ method, url, headers: { ...as[role]?.headers }, ...(payload === undefined ? {} : { payload }) });
  if (!(res.headers['content-type'] ?? '').toString().startsWith('application/json')) return { status: res.statusCode, msg: 'a file' };
  const body = res.json<{ status: number; msg: string }>();
  return { status: body.status, msg: body.msg };
}

describe('who may call each signed-in route', () => {
  it.each(DECLARED)('%s %s', async (method, url, alsoAllowed) => {
    const payload = method === 'POST' || method === 'PUT' ? {} : undefined;
    for (const role of ['anonymous', 'shop', 'inspector', 'admin', 'super_admin']) {
      const res = await statusOf(method, url, role, payload);
      const expected = role === 'anonymous' ? 401 : role === 'super_admin' || alsoAllowed.includes(role) ? 'through' : 403;
      if (expected === 'through') expect([401, 403], `${role} ${method} ${url}: ${res.msg}`).not.toContain(res.status);
      else expect(res.status, `${role} ${method} ${url}`).toBe(expected);
    }
  });
});
