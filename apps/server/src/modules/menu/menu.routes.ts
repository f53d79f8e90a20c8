import { MenuList } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { requireUser, type RouteDeps } from '../../http/route-context.ts';
import { menuFor } from './menu.service.ts';

/** Spec §7 `POST /menu`: the server menu (settings drawer "menu from server", spec §4). */
const menuRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app) => {
  app.post(
    '/menu',
    {
      // Any signed-in user: the answer is their own role's menu.
      // A read (POST only because the spec says so): nothing for the operation log.
      config: { auth: 'user', log: false },
      schema: {
        tags: ['menu'],
        summary: "The menu of the session's role, from the shared route table",
        security: [{ bearer: [] }],
        response: responses(MenuList),
      },
    },
    async (request) => ok(menuFor(requireUser(request))),
  );
};

export default menuRoutes;
