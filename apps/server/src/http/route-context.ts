/**
 * What every route module needs from the app and nothing more: the dependencies a route
 * plugin is registered with, the access rule it declares, and who is calling. It sits below
 * `modules/` (it imports only `db/`, `lib/` and the config's type), so `routes.ts` can import
 * every module and every module can import this without a cycle. Decision 0020.
 */
import { Status, type CurrentUser, type Permission } from '@clearplay/contract';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import { AppError } from '../lib/errors.ts';
import { pickLocale, type Locale } from '../lib/messages.ts';

/** What `routes.ts` registers every module's plugin with. */
export interface RouteDeps {
  db: Db;
  config: AppConfig;
}

/**
 * Who may call a route. Every route must say; a route that does not is refused (plugins/auth.ts).
 * 'optional': anyone, but a bearer token, when sent, must be a live session (tracking calls).
 */
export type AuthRule = 'public' | 'optional' | 'user';

/** The signed-in user of a request: the spec's Current user plus the session it came with. */
export interface AuthUser extends CurrentUser {
  sessionId: number;
  /** Epoch ms at which this session ends. */
  sessionExpiresAt: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRule;
    /** Required permission (implies auth 'user'); a list means any one of them. */
    permission?: Permission | readonly Permission[];
  }
  interface FastifyRequest {
    /** Set by the auth plugin's hook for 'user' and 'optional' routes. */
    user: AuthUser | null;
  }
}

/** The signed-in user acting on others: who they are and what their role may do. */
export interface Operator {
  id: number;
  username: string;
  permissions: readonly string[];
}

/** The user of a route declared `auth: 'user'` (the hook guarantees one). */
export function requireUser(request: FastifyRequest): AuthUser {
  if (request.user === null) throw new AppError(Status.UNAUTHORIZED, 'auth.required');
  return request.user;
}

/** The operator of a route declared `auth: 'user'`. */
export function operatorOf(request: FastifyRequest): Operator {
  const user = requireUser(request);
  return { id: user.id, username: user.username, permissions: user.role.permissions };
}

/** The language a request is answered in (Accept-Language, zh-CN by default). */
export const localeOf = (request: FastifyRequest): Locale => pickLocale(request.headers['accept-language']);
