import { sessionEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

/**
 * GET /api/admin/user/logout: ends the session on the server. Part of the session life
 * cycle, so no session dialog or 401 redirect. The whole client-side logout (docs/product.md "The back office": every
 * reset happens whatever this call answers) is composed in app/session.ts, which also has
 * the `useLogout` hook, because it touches several features.
 */
export const logoutRequest = (): Promise<null> => api.call(sessionEndpoints.logout, { session: 'guard', endsSession: true });

export const logoutMutationKey = ['auth', 'logout'] as const;
