import { endpoint } from './endpoint.ts';

const tag = 'auth';

/**
 * Signing in and out, and the signed-in user (the login page's first load carries this group).
 * Signing in is open to anyone (it acts on the account whose password is sent); the rest act on
 * the caller's own session.
 */
export const authEndpoints = {
  login: endpoint({
    method: 'POST',
    path: '/admin/user/login',
    access: { auth: 'public', records: 'own' },
    log: { module: 'auth', action: 'login', operatorFromBody: 'username' },
    summary: 'Log in; answers a bearer token, or (two-step verification) the step that comes next and its ticket',
    tag,
    schemas: (s) => ({ body: s.LoginBody, response: s.LoginData }),
  }),
  logout: endpoint({
    method: 'GET',
    path: '/admin/user/logout',
    access: { auth: 'user', records: 'own' },
    log: { module: 'auth', action: 'logout' },
    summary: 'End this session',
    tag,
    schemas: (s) => ({ response: s.Empty }),
  }),
  info: endpoint({
    method: 'GET',
    path: '/admin/user/info',
    access: { auth: 'user', records: 'own' },
    summary: 'The signed-in user',
    tag,
    schemas: (s) => ({ response: s.CurrentUser }),
  }),
  session: endpoint({
    method: 'GET',
    path: '/admin/user/session',
    access: { auth: 'user', records: 'own' },
    summary: 'Check the session: answers when it ends (an authenticated call that changes nothing)',
    tag,
    schemas: (s) => ({ response: s.SessionData }),
  }),
};
