import type { AccountProfile, LoginBody, LoginData } from '@clearplay/contract';
import { authEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /api/admin/user/login. Part of the session life cycle: no session dialog, no 401 redirect.
 * Quiet: the form itself shows why a sign-in failed, once (no toast besides it).
 */
export const login = (body: LoginBody): Promise<LoginData> => api.call(authEndpoints.login, { body, session: 'guard', quiet: true });

/** Starts loading the saved-language call (a sign-in began): it is ready when the session is. */
export const loadSavedLocale = () => import('./saved-locale.ts');

/** The language the user saved in their settings, or null (saved-locale.ts; also when its code failed to load). */
export const savedLocale = (): Promise<AccountProfile['locale']> =>
  loadSavedLocale().then(
    (module) => module.savedLocale(),
    () => null,
  );
