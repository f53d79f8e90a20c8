import { viewAsEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { requireUser, type RouteDeps } from '../../http/route-context.ts';
import { authenticate, currentUser } from '../auth/auth.service.ts';
import { endViewAs, startViewAs } from './view-as.service.ts';

/**
 * Switch roles (decision 0060). Both routes are open to any signed-in session and decide in
 * the service: starting needs a session whose own user is a super admin and that is not
 * viewing already; switching back is the one call outside the viewed role's permissions (for a
 * session that is not viewing it changes nothing), so it is always allowed.
 */
const viewAsRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.start, async (request) => {
    const user = requireUser(request);
    const target = await startViewAs(db, user, request.body);
    request.logContent =
      `user ${user.username} (#${user.id}): viewing as ${request.body.role}` +
      (target.userId === null ? '' : ` ${target.username ?? ''} (#${target.userId})`);
    // The answer is the session as it now is: the viewed role (and account).
    return ok(currentUser(await authenticate(db, request.headers.authorization)));
  });

  route(app, api.end, async (request) => {
    const user = requireUser(request);
    const ended = await endViewAs(db, user);
    request.logContent = ended
      ? `user ${user.viewAs?.by.username ?? ''} (#${user.viewAs?.by.id ?? 0}): switched back`
      : 'not viewing as another role';
    return ok({ ended });
  });
};

export default viewAsRoutes;
