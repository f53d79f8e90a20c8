import type { SecondFactorBody, SecondFactorLoginData, TotpEnrolment } from '@clearplay/contract';
import { loginStepEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

// The sign-in's second step (decision 0091): loaded with it, not with the login page.
/** POST /api/admin/user/login/enrol: the secret and QR code of the authenticator app an account must set up before it signs in. */
export const loginEnrol = (ticket: string): Promise<TotpEnrolment> =>
  api.call(loginStepEndpoints.enrol, { body: { ticket }, session: 'guard', quiet: true });

/** POST /api/admin/user/login/second-factor: the ticket with the app's code or a recovery code; answers the session. */
export const loginSecondFactor = (body: SecondFactorBody): Promise<SecondFactorLoginData> =>
  api.call(loginStepEndpoints.secondFactor, { body, session: 'guard', quiet: true });
