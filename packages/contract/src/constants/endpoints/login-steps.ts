import { endpoint } from './endpoint.ts';

const tag = 'auth';

/**
 * The sign-in's second step (decision 0091), open to anyone holding the ticket of the first:
 * it acts on the account the ticket names. Its own group and file, loaded with the step, not with
 * the login page.
 */
export const loginStepEndpoints = {
  enrol: endpoint({
    method: 'POST',
    path: '/admin/user/login/enrol',
    access: { auth: 'public', records: 'own' },
    log: { module: 'auth', action: 'secondFactorEnrol' },
    summary: 'Sign-in of an account that must set up an authenticator app: its secret and QR code (ticket of step enrol)',
    tag,
    schemas: (s) => ({ body: s.LoginEnrolBody, response: s.TotpEnrolment }),
  }),
  secondFactor: endpoint({
    method: 'POST',
    path: '/admin/user/login/second-factor',
    access: { auth: 'public', records: 'own' },
    log: { module: 'auth', action: 'login' },
    summary: "Finish a sign-in with the authenticator's code or a recovery code; answers a bearer token",
    tag,
    schemas: (s) => ({ body: s.SecondFactorBody, response: s.SecondFactorLoginData }),
  }),
};
