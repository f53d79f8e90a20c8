import { Type } from 'typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, loginAs, type TestContext } from '../test/context.ts';
import authPlugin, { UndeclaredRouteError } from './auth.ts';
import errorsPlugin from './errors.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.destroy());

/** A started app with the real error and auth plugins and extra routes; rejects when the start fails. */
async function appWith(register: (app: FastifyInstance) => void) {
  const app = Fastify({ logger: false });
  await app.register(errorsPlugin);
  await app.register(authPlugin, { db: ctx.db });
  register(app);
  await app.ready();
  return { app };
}

describe('access rules', () => {
  it('refuses to start when a route declares no access rule', async () => {
    // As a module registers its routes: inside a plugin, so the start (ready) fails.
    const started = appWith((a) => {
      a.register(async (module: FastifyInstance) => {
        module.get('/api/forgotten', async () => ({ status: 200, msg: 'ok', data: null }));
      });
    });
    await expect(started).rejects.toThrow(UndeclaredRouteError);
    await expect(started).rejects.toThrow(/GET \/api\/forgotten declares no access rule/);
  });

  it('refuses a public route that names a permission', async () => {
    await expect(
      appWith((a) => {
        a.get('/api/odd', { config: { auth: 'public', permission: 'user:view' } }, async () => null);
      }),
    ).rejects.toThrow(/is public but declares a permission/);
  });

  it('checks the permission against the role: 403 with a clear message, or through', async () => {
    const { app } = await appWith((a) => {
      a.get(
        '/api/needs-user-view',
        { config: { auth: 'user', permission: 'user:view' }, schema: { querystring: Type.Object({ n: Type.Optional(Type.Integer()) }) } },
        async (request) => ({ status: 200, msg: 'ok', data: { user: request.user?.username ?? null, query: request.query } }),
      );
    });
    const shop = await loginAs(ctx, 'shop');
    const denied = await app.inject({ method: 'GET', url: '/api/needs-user-view', headers: shop.headers });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ status: 403, msg: 'You do not have permission to do this (user:view)', data: null });

    const boss = await loginAs(ctx, 'super_admin');
    const allowed = await app.inject({ method: 'GET', url: '/api/needs-user-view?n=7', headers: boss.headers });
    expect(allowed.json()).toEqual({ status: 200, msg: 'ok', data: { user: boss.username, query: { n: 7 } } });

    const anonymous = await app.inject({ method: 'GET', url: '/api/needs-user-view' });
    expect(anonymous.statusCode).toBe(401);
    await app.close();
  });

  it('masks unexpected errors as 500 Internal error without a stack trace', async () => {
    const { app } = await appWith((a) => {
      a.get('/api/boom', { config: { auth: 'public' } }, async () => {
        throw new Error('secret detail at /srv/app.ts:12');
      });
    });
    const res = await app.inject({ method: 'GET', url: '/api/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ status: 500, msg: 'Internal error', data: null });
    expect(res.body).not.toContain('secret');
    await app.close();
  });
});
