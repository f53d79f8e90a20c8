import { endpoint } from './endpoint.ts';

const tag = 'account';

/**
 * Switch roles. Both calls are open to any signed-in session and decide in the service:
 * starting needs a session whose own user is a super admin and that is not viewing already;
 * switching back is the one call outside the viewed role's permissions, so always allowed.
 */
export const viewAsEndpoints = {
  start: endpoint({
    method: 'POST',
    path: '/admin/account/view-as',
    access: { auth: 'user', records: 'own' },
    log: { module: 'account', action: 'viewAs' },
    summary: 'Super admin: view the app as admin, inspector or one shop account until switching back',
    tag,
    schemas: (s) => ({ body: s.ViewAsBody, response: s.CurrentUser }),
  }),
  end: endpoint({
    method: 'POST',
    path: '/admin/account/view-as/end',
    access: { auth: 'user', records: 'own' },
    log: { module: 'account', action: 'viewAsEnd' },
    summary: 'Switch back from viewing as another role',
    tag,
    schemas: (s) => ({ response: s.ViewAsEnded }),
  }),
};
