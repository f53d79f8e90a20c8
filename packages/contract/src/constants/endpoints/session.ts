import { endpoint } from './endpoint.ts';

const tag = 'auth';

/** The signed-in user and their session: each call acts on the caller's own session. */
export const sessionEndpoints = {
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
  check: endpoint({
    method: 'GET',
    path: '/admin/user/session',
    access: { auth: 'user', records: 'own' },
    summary: 'Check the session: answers when it ends (an authenticated call that changes nothing)',
    tag,
    schemas: (s) => ({ response: s.SessionData }),
  }),
};
