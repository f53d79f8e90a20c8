import { viewAsEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { requireUser, type RouteDeps } from '../../http/route-context.ts';
import { authenticate, currentUser } from '../auth/auth.service.ts';
import { endViewAs, startViewAs } from './view-as.service.ts';
import { logText } from '../../lib/log-text.ts';

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
    const viewer = { username: user.username, id: user.id, role: request.body.role };
    request.logContent =
      target.userId === null
        ? logText('log.text.user.viewAs', viewer)
        : logText('log.text.user.viewAsAccount', { ...viewer, account: target.username ?? '', accountId: target.userId });
    // The answer is the session as it now is: the viewed role (and account).
    return ok(currentUser(await authenticate(db, request.headers.authorization)));
  });

  route(app, api.end, async (request) => {
    const user = requireUser(request);
    const ended = await endViewAs(db, user);
    request.logContent = ended
      ? logText('log.text.user.viewAsEnded', { username: user.viewAs?.by.username ?? '', id: user.viewAs?.by.id ?? 0 })
      : logText('log.text.user.notViewing');
    return ok({ ended });
  });
};

export default viewAsRoutes;
