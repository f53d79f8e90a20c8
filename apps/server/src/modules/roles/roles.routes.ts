import { roleEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { operatorOf, type RouteDeps } from '../../http/route-context.ts';
import * as roles from './roles.service.ts';
import { logText } from '../../lib/log-text.ts';

/** Roles (docs/product.md "People and what each may do"): permissions from the contract's catalogue. */
const roleRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.list, async (request) => ok(await roles.listRolesPage(db, request.query)));

  route(app, api.all, async () => ok(await roles.allRoles(db)));

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
