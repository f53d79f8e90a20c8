import { Empty, IdQuery, Page, RoleCreateBody, RoleItem, RoleListQuery, RoleUpdateBody } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { operatorOf, type RouteDeps } from '../../http/route-context.ts';
import * as roles from './roles.service.ts';

const security = [{ bearer: [] }];
const tags = ['role'];

/** Roles (spec §3 Role, §6): permissions from the contract's catalogue. */
const roleRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/admin/role/list',
    {
      config: { auth: 'user', permission: 'role:view' },
      schema: { tags, summary: 'Roles with their user counts', security, querystring: RoleListQuery, response: responses(Page(RoleItem)) },
    },
    async (request) => ok(await roles.listRolesPage(db, request.query)),
  );

  app.get(
    '/admin/role/all',
    {
      // The user form's role picker needs them too.
      config: { auth: 'user', permission: ['role:view', 'user:view'] },
      schema: { tags, summary: 'Every role (for pickers)', security, response: responses(Type.Array(RoleItem)) },
    },
    async () => ok(await roles.allRoles(db)),
  );

  app.post(
    '/admin/role/create',
    {
      config: { auth: 'user', permission: 'role:create', log: { module: 'role', action: 'create' } },
      schema: { tags, summary: 'Create a role', security, body: RoleCreateBody, response: responses(RoleItem) },
    },
    async (request) => {
      const item = await roles.createRole(db, request.body, operatorOf(request));
      request.logContent = `role ${item.name} (#${item.id}): created with ${item.permissions.length} permissions`;
      return ok(item);
    },
  );

  app.post(
    '/admin/role/update',
    {
      config: { auth: 'user', permission: 'role:update', log: { module: 'role', action: 'update' } },
      schema: { tags, summary: 'Update a role', security, body: RoleUpdateBody, response: responses(RoleItem) },
    },
    async (request) => {
      const item = await roles.updateRole(db, request.body, operatorOf(request));
      request.logContent = `role ${item.name} (#${item.id}): updated, ${item.permissions.length} permissions`;
      return ok(item);
    },
  );

  app.get(
    '/admin/role/delete',
    {
      config: { auth: 'user', permission: 'role:delete', log: { module: 'role', action: 'delete' } },
      schema: { tags, summary: 'Delete a role that nobody holds', security, querystring: IdQuery, response: responses(Empty) },
    },
    async (request) => {
      const name = await roles.deleteRole(db, request.query.id);
      request.logContent = `role ${name} (#${request.query.id}): deleted`;
      return ok(null);
    },
  );
};

export default roleRoutes;
