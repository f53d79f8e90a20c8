import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, loginAs, type LoggedIn, type TestContext } from '../test/context.ts';

/**
 * The web client reads every JSON answer as the `{status, msg, data}` envelope, and takes
 * anything else for a broken answer (a red toast naming the HTTP status, "200 OK"). So every
 * API route declares the envelope as its success answer (or a file, or the poll's 304), and
 * every route, called for real, answers an envelope or a file, never an empty 2xx.
 */
let ctx: TestContext;
let admin: LoggedIn;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = await loginAs(ctx, 'super_admin');
});
afterAll(() => ctx.destroy());

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }> };

function operations(): { method: string; path: string; operation: Operation }[] {
  const spec = ctx.app.swagger() as { paths: Record<string, Record<string, Operation>> };
  const out: { method: string; path: string; operation: Operation }[] = [];
  for (const [path, byMethod] of Object.entries(spec.paths)) {
    if (!path.startsWith('/api/') || path.startsWith('/api/docs')) continue;
    for (const [method, operation] of Object.entries(byMethod)) {
      if (['get', 'post', 'put', 'delete'].includes(method)) out.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return out;
}

describe('every API route answers the envelope', () => {
  it('declares the envelope {status, msg, data} as its 200 JSON answer', () => {
    const routes = operations();
    expect(routes.length).toBeGreaterThan(50);
    const without: string[] = [];
    for (const { method, path, operation } of routes) {
      const answer = operation.responses?.['200'];
      const json = answer?.content?.['application/json'];
      // A file route (export, template) declares no JSON success body; its errors are envelopes.
      if (answer !== undefined && json === undefined) continue;
      const properties = Object.keys(json?.schema?.properties ?? {});
      if (!['status', 'msg', 'data'].every((p) => properties.includes(p))) without.push(`${method} ${path}`);
    }
    expect(without).toEqual([]);
  });

  it('answers, when called, an envelope or a file, and never an empty 2xx', async () => {
    const bad: string[] = [];
    for (const { method, path } of operations()) {
      if (path === '/api/admin/user/logout') continue; // would end the session the loop calls with
      const url = path.replace(/\{[^}]+\}/g, '999999');
      const res = await ctx.app.inject({
        method: method as 'GET',
        url,
        headers: admin.headers,
        ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}),
      });
      const type = String(res.headers['content-type'] ?? '');
      if (res.statusCode === 204 || res.body === '') {
        bad.push(`${method} ${url}: ${res.statusCode} with no body`);
      } else if (type.startsWith('application/json')) {
        const body = res.json<Record<string, unknown>>();
        if (typeof body.status !== 'number' || typeof body.msg !== 'string' || !('data' in body))
          bad.push(`${method} ${url}: ${res.body.slice(0, 80)}`);
      } else if (res.statusCode !== 200) {
        bad.push(`${method} ${url}: ${res.statusCode} ${type}`);
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);
});
