import { endpoint } from './endpoint.ts';

const tag = 'role';

/** Roles: permissions from the contract's catalogue. */
export const roleEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/admin/role/list',
    access: { auth: 'user', permission: 'role:view', records: 'shared' },
    summary: 'Roles with their user counts',
    tag,
    schemas: (s) => ({ query: s.RoleListQuery, response: s.Page(s.RoleItem) }),
  }),
  all: endpoint({
    method: 'GET',
    path: '/admin/role/all',
    // The user form's role picker needs them too.
    access: { auth: 'user', permission: ['role:view', 'user:view'], records: 'shared' },
    summary: 'Every role (for pickers)',
    tag,
    schemas: (s) => ({ response: s.Type.Array(s.RoleItem) }),
  }),
  create: endpoint({
    method: 'POST',
    path: '/admin/role/create',
    access: { auth: 'user', permission: 'role:create', records: 'shared' },
    log: { module: 'role', action: 'create' },
    summary: 'Create a role',
    tag,
    schemas: (s) => ({ body: s.RoleCreateBody, response: s.RoleItem }),
  }),
  update: endpoint({
    method: 'POST',
    path: '/admin/role/update',
    access: { auth: 'user', permission: 'role:update', records: 'shared' },
    log: { module: 'role', action: 'update' },
    summary: 'Update a role',
    tag,
    schemas: (s) => ({ body: s.RoleUpdateBody, response: s.RoleItem }),
  }),
  delete: endpoint({
    method: 'GET',
    path: '/admin/role/delete',
    access: { auth: 'user', permission: 'role:delete', records: 'shared' },
    log: { module: 'role', action: 'delete' },
    summary: 'Delete a role that nobody holds',
    tag,
    schemas: (s) => ({ query: s.IdQuery, response: s.Empty }),
  }),
};
