import { CurrentUser, ViewAsBody, ViewAsEnded } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { requireUser, type RouteDeps } from '../../http/route-context.ts';
import { authenticate, currentUser } from '../auth/auth.service.ts';
import { endViewAs, startViewAs } from './view-as.service.ts';

const security = [{ bearer: [] }];
const tags = ['account'];

/**
 * Switch roles (issue 14, decision 0060). Both routes are open to any signed-in session and
 * decide in the service: starting needs a session whose own user is a super admin and that is
 * not viewing already; switching back is the one call outside the viewed role's permissions
 * (for a session that is not viewing it changes nothing), so it is always allowed.
 */
const viewAsRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.post(
    '/admin/account/view-as',
    {
      config: { auth: 'user', log: { module: 'account', action: 'viewAs' } },
      schema: {
        tags,
        summary: 'Super admin: view the app as admin, inspector or one shop account until switching back',
        security,
        body: ViewAsBody,
        response: responses(CurrentUser),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const target = await startViewAs(db, user, request.body);
      request.logContent =
        `user ${user.username} (#${user.id}): viewing as ${request.body.role}` +
        (target.userId === null ? '' : ` ${target.username ?? ''} (#${target.userId})`);
      // The answer is the session as it now is: the viewed role (and account).
      return ok(currentUser(await authenticate(db, request.headers.authorization)));
    },
  );

  app.post(
    '/admin/account/view-as/end',
    {
      config: { auth: 'user', log: { module: 'account', action: 'viewAsEnd' } },
      schema: { tags, summary: 'Switch back from viewing as another role', security, response: responses(ViewAsEnded) },
    },
    async (request) => {
      const user = requireUser(request);
      const ended = await endViewAs(db, user);
      request.logContent = ended
        ? `user ${user.viewAs?.by.username ?? ''} (#${user.viewAs?.by.id ?? 0}): switched back`
        : 'not viewing as another role';
      return ok({ ended });
    },
  );
};

export default viewAsRoutes;
