import { endpointList, pathParamNames } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemasOf } from './http/endpoint.ts';
import { API_PREFIX } from './routes.ts';
import { createTestContext, type TestContext } from './test/context.ts';

/**
 * Declarations and routes held together (decision 0096): every endpoint declared in the
 * contract is registered once, from its declaration, with its method and path, and every route
 * under /api comes from a declaration.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.destroy());

const declared = endpointList();

describe('endpoints and routes', () => {
  it('registers every declaration once, from the declaration, at its method and path', () => {
    const wrong: string[] = [];
    for (const { name, endpoint } of declared) {
      const routes = ctx.app.apiRoutes.filter((route) => route.endpoint === endpoint);
      if (routes.length !== 1) wrong.push(`${name}: ${routes.length} routes`);
      for (const route of routes) {
        if (route.method !== endpoint.method || route.url !== `${API_PREFIX}${endpoint.path}`)
          wrong.push(`${name}: declared ${endpoint.method} ${endpoint.path}, registered ${route.method} ${route.url}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('registers no route without a declaration', () => {
    const known = new Set(declared.map(({ endpoint }) => endpoint));
    const stray = ctx.app.apiRoutes
      .filter((route) => route.endpoint === undefined || !known.has(route.endpoint))
      .map((route) => `${route.method} ${route.url}`);
    expect(stray).toEqual([]);
  });

  it('declares each method and path once, its path parameters in its params schema, and a permission only for signed-in calls', () => {
    const wrong: string[] = [];
    const seen = new Set<string>();
    for (const { name, endpoint } of declared) {
      const key = `${endpoint.method} ${endpoint.path}`;
      if (seen.has(key)) wrong.push(`${name}: ${key} twice`);
      seen.add(key);
      const params = schemasOf(endpoint).params as { properties?: Record<string, unknown> } | undefined;
      const inPath = pathParamNames(endpoint.path).sort();
      const inSchema = Object.keys(params?.properties ?? {}).sort();
      if (inPath.join() !== inSchema.join()) wrong.push(`${name}: path has [${inPath.join()}], params schema [${inSchema.join()}]`);
      if (endpoint.access.permission !== undefined && endpoint.access.auth !== 'user')
        wrong.push(`${name}: a permission on a call that is not signed in`);
    }
    expect(wrong).toEqual([]);
  });
});
