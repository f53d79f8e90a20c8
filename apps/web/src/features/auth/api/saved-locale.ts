import type { AccountProfile } from '@clearplay/contract';
import { accountEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

/**
 * The language the user saved in their settings (GET /admin/account/profile), applied at
 * sign-in on any browser; null when they chose none or the call fails (the sign-in goes on).
 * Loaded while the password is checked (`loadSavedLocale` in login.ts), so the account's
 * declarations are not part of the login page's first load.
 */
export const savedLocale = (): Promise<AccountProfile['locale']> =>
  api
    .call(accountEndpoints.profile, { session: 'guard', quiet: true })
    .then((p) => p.locale)
    .catch(() => null);
