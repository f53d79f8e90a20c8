import { Status, type Permission } from '@clearplay/contract';
import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/index.ts';
// The access rule routes declare (config.auth / config.permission) and request.user are typed there.
import type { AuthUser } from '../http/route-context.ts';
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
 * Deny by default. At registration, a route without `config.auth` stops the start (app.ts
 * registers this plugin before any route, so every route passes here). Then: 'public' passes,
 * 'user' needs a live session, and a `permission` must be among the role's permissions.
 *
 * The check is the route's own onRequest hook, made at registration for its rule (decision
 * 0071): a public route runs none, and a guarded one reads no route options per request. It
 * is callback-style and synchronous when the session read is (SQLite), so a call passes on
 * without a promise or a microtask turn; a read or write that answers a promise is waited for.
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
    const permission = route.config?.permission;
    if (rule !== 'user' && permission !== undefined) {
      throw new Error(`Route ${String(route.method)} ${route.url} is public but declares a permission`);
    }
    if (rule === 'public') return;
    // The guard runs first among the route's own hooks (those of plugins registered later follow).
    route.onRequest = [guardOf(db, rule, permission), ...hooksOf(route.onRequest)];
  });
}

function guardOf(db: Db, rule: 'optional' | 'user', permission: Permission | readonly Permission[] | undefined): onRequestHookHandler {
  const anyOf: readonly string[] | undefined = typeof permission === 'string' ? [permission] : permission;
  /** The user may call the route: the request gets them; else the 403 (errors pass to done). */
  const admit = (request: FastifyRequest, user: AuthUser, done: HookHandlerDoneFunction): void => {
    request.user = user;
    if (anyOf !== undefined && !holdsAny(user.role.permissions, anyOf)) {
      done(new AppError(Status.FORBIDDEN, 'errors.permission', { permission: anyOf.join(' | ') }));
      return;
    }
    done();
  };
  return (request, _reply, done) => {
    const { authorization } = request.headers;
    if (rule === 'optional' && authorization === undefined) {
      done();
      return;
    }
    let user: AuthUser | Promise<AuthUser>;
    try {
      user = authenticate(db, authorization);
    } catch (error) {
      done(error as Error);
      return;
    }
    // done() runs the rest of the request; it is called outside the try, so nothing it throws comes back here.
    if (user instanceof Promise) user.then((found) => admit(request, found, done), done);
    else admit(request, user, done);
  };
}

/** Does the role hold one of `anyOf`? (A loop: no callback made per request.) */
function holdsAny(permissions: readonly string[], anyOf: readonly string[]): boolean {
  for (const permission of anyOf) if (permissions.includes(permission)) return true;
  return false;
}

const hooksOf = <H>(hooks: H | H[] | undefined): H[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

export default fp(authPlugin, { name: 'auth' });
