import { endpoint } from './endpoint.ts';

const tag = 'auth';

/**
 * Signing in: open to anyone, it acts on the account whose password is sent. Alone in its file,
 * so the login page's first load carries this one declaration (the session's calls are in
 * session.ts, the second step in login-steps.ts).
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
};
