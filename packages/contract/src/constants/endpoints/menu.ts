import { endpoint } from './endpoint.ts';

/** The server menu (settings drawer "menu from server"). */
export const menuEndpoints = {
  menu: endpoint({
    method: 'POST',
    path: '/menu',
    // Any signed-in user: the answer is their own role's menu. A read (POST only because the
    // spec says so): nothing for the operation log.
    access: { auth: 'user', records: 'own' },
    log: false,
    summary: "The menu of the session's role, from the shared route table",
    tag: 'menu',
    schemas: (s) => ({ response: s.MenuList }),
  }),
};
