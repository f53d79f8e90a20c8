import { Status } from '@clearplay/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/index.ts';
// The access rule routes declare (config.auth / config.permission) and request.user are typed there.
import '../http/route-context.ts';
import { AppError } from '../lib/errors.ts';
import { authenticate } from '../modules/auth/auth.service.ts';

/** Routes registered by third-party plugins (the OpenAPI UI): public, and the only exception. */
export const DOCS_PREFIX = '/api/docs';

export class UndeclaredRouteError extends Error {
  constructor(method: string | string[], url: string) {
    super(`Route ${String(method)} ${url} declares no access rule: add config: { auth: 'public' | 'optional' | 'user', permission? }`);
    this.name = 'UndeclaredRouteError';
  }
}

/**
 * Deny by default. At registration, a route without `config.auth` stops the start; at
 * request time, a route without it answers 403 anyway. Then: 'public' passes, 'user'
 * needs a live session, and a `permission` must be among the role's permissions.
 */
async function authPlugin(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route) => {
    if (route.url === DOCS_PREFIX || route.url.startsWith(`${DOCS_PREFIX}/`)) {
      route.config = { ...route.config, auth: 'public' };
      return;
    }
    const rule = route.config?.auth;
    if (rule !== 'public' && rule !== 'optional' && rule !== 'user') throw new UndeclaredRouteError(route.method, route.url);
    if (rule !== 'user' && route.config?.permission !== undefined) {
      throw new Error(`Route ${String(route.method)} ${route.url} is public but declares a permission`);
    }
  });

  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const { auth, permission } = request.routeOptions.config;
    if (auth === undefined) throw new AppError(Status.FORBIDDEN, 'errors.routeUndeclared');
    if (auth === 'public') return;
    if (auth === 'optional' && request.headers.authorization === undefined) return;
    const user = await authenticate(db, request.headers.authorization);
    request.user = user;
    if (permission === undefined) return;
    const anyOf: readonly string[] = typeof permission === 'string' ? [permission] : permission;
    if (!anyOf.some((p) => user.role.permissions.includes(p))) {
      throw new AppError(Status.FORBIDDEN, 'errors.permission', { permission: anyOf.join(' | ') });
    }
  });
}

export default fp(authPlugin, { name: 'auth' });
