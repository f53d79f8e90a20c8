import { roleEndpoints as api, RoleItem } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { route } from '../../http/endpoint.ts';
import { ok, responses } from '../../lib/envelope.ts';
import { operatorOf, type RouteDeps } from '../../http/route-context.ts';
import * as roles from './roles.service.ts';
import { logText } from '../../lib/log-text.ts';

/** Roles (spec §3 Role, §6): permissions from the contract's catalogue. */
const roleRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.list, async (request) => ok(await roles.listRolesPage(db, request.query)));

  // Not yet declared: the users feature calls it (contract UNDECLARED_ROUTES).
  app.get(
    '/admin/role/all',
    {
      // The user form's role picker needs them too.
      config: { auth: 'user', permission: ['role:view', 'user:view'] },
      schema: {
        tags: ['role'],
        summary: 'Every role (for pickers)',
        security: [{ bearer: [] }],
        response: responses(Type.Array(RoleItem)),
      },
    },
    async () => ok(await roles.allRoles(db)),
  );

  route(app, api.create, async (request) => {
    const item = await roles.createRole(db, request.body, operatorOf(request));
    request.logContent = logText('log.text.role.created', { name: item.name, id: item.id, count: item.permissions.length });
    return ok(item);
  });

  route(app, api.update, async (request) => {
    const item = await roles.updateRole(db, request.body, operatorOf(request));
    request.logContent = logText('log.text.role.updated', { name: item.name, id: item.id, count: item.permissions.length });
    return ok(item);
  });

  route(app, api.delete, async (request) => {
    const name = await roles.deleteRole(db, request.query.id);
    request.logContent = logText('log.text.role.deleted', { name, id: request.query.id });
    return ok(null);
  });
};

export default roleRoutes;
