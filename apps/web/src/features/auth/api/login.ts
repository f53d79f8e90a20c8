import type { AccountProfile, LoginBody, LoginData } from '@clearplay/contract';
import { accountEndpoints, authEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /api/admin/user/login. Part of the session life cycle: no session dialog, no 401 redirect.
 * Quiet: the form itself shows why a sign-in failed, once (no toast besides it).
 */
export const login = (body: LoginBody): Promise<LoginData> => api.call(authEndpoints.login, { body, session: 'guard', quiet: true });

/**
 * The language the user saved in their settings (GET /admin/account/profile), applied at
 * sign-in on any browser; null when they chose none or the call fails (the sign-in goes on).
 */
export const savedLocale = (): Promise<AccountProfile['locale']> =>
  api
    .call(accountEndpoints.profile, { session: 'guard', quiet: true })
    .then((p) => p.locale)
    .catch(() => null);
