import { endpoint } from './endpoint.ts';

const tag = 'account';

/**
 * The signed-in user's own account (user centre, user settings): any signed-in user, on their
 * own records only. While a super admin views as a shop account (decision 0060), the calls that
 * change the account are refused (the server's `accountOwner`).
 */
export const accountEndpoints = {
  profile: endpoint({
    method: 'GET',
    path: '/admin/account/profile',
    access: { auth: 'user', records: 'own' },
    summary: 'My profile (and, for a shop, its subscription and balance)',
    tag,
    schemas: (s) => ({ response: s.AccountProfile }),
  }),
  updateProfile: endpoint({
    method: 'POST',
    path: '/admin/account/profile',
    access: { auth: 'user', records: 'own' },
    log: { module: 'account', action: 'update' },
    summary: 'Edit my nickname, chat ID, phone, avatar, language',
    tag,
    schemas: (s) => ({ body: s.AccountUpdateBody, response: s.AccountProfile }),
  }),
  avatar: endpoint({
    method: 'POST',
    path: '/admin/account/avatar',
    access: { auth: 'user', records: 'own' },
    log: { module: 'account', action: 'avatar' },
    summary: "Set my avatar: the URL of my own stored `avatar` upload, or '' to remove it",
    tag,
    schemas: (s) => ({ body: s.AccountAvatarBody, response: s.AccountProfile }),
  }),
  password: endpoint({
    method: 'POST',
    path: '/admin/account/password',
    access: { auth: 'user', records: 'own' },
    log: { module: 'account', action: 'password' },
    summary: 'Change my password (the current one required); my other sessions end, this one stays',
    tag,
    schemas: (s) => ({ body: s.PasswordChangeBody, response: s.PasswordChangeResult }),
  }),
  logins: endpoint({
    method: 'GET',
    path: '/admin/account/logins',
    access: { auth: 'user', records: 'own' },
    summary: 'My sign-ins, newest first',
    tag,
    schemas: (s) => ({ query: s.AccountPageQuery, response: s.LoginHistoryPage }),
  }),
  sessions: endpoint({
    method: 'GET',
    path: '/admin/account/sessions',
    access: { auth: 'user', records: 'own' },
    summary: 'My live sessions (this one marked current)',
    tag,
    schemas: (s) => ({ response: s.Type.Array(s.ActiveSession) }),
  }),
  endOtherSessions: endpoint({
    method: 'POST',
    path: '/admin/account/sessions/end-others',
    access: { auth: 'user', records: 'own' },
    log: { module: 'account', action: 'endSessions' },
    summary: 'Sign out my other sessions',
    tag,
    schemas: (s) => ({ response: s.EndedSessions }),
  }),
  ledger: endpoint({
    method: 'GET',
    path: '/admin/account/ledger',
    access: { auth: 'user', records: 'own' },
    summary: "A shop's own ledger and balance (read-only)",
    tag,
    schemas: (s) => ({ query: s.AccountPageQuery, response: s.LedgerPage }),
  }),
  subscriptions: endpoint({
    method: 'GET',
    path: '/admin/account/subscriptions',
    access: { auth: 'user', records: 'own' },
    summary: 'My subscription records',
    tag,
    schemas: (s) => ({ response: s.Type.Array(s.SubscriptionRecord) }),
  }),
  secondFactor: endpoint({
    method: 'GET',
    path: '/admin/account/second-factor',
    access: { auth: 'user', records: 'own' },
    summary: 'My two-step verification: on or off, required, exempt (demo)',
    tag,
    schemas: (s) => ({ response: s.SecondFactorState }),
  }),
  secondFactorEnrol: endpoint({
    method: 'POST',
    path: '/admin/account/second-factor/enrol',
    access: { auth: 'user', records: 'own' },
    log: { module: 'account', action: 'secondFactorEnrol' },
    summary: 'Start setting up an authenticator app: its secret and QR code (confirmed by the next call)',
    tag,
    schemas: (s) => ({ response: s.TotpEnrolment }),
  }),
  secondFactorConfirm: endpoint({
    method: 'POST',
    path: '/admin/account/second-factor/confirm',
    access: { auth: 'user', records: 'own' },
    log: { module: 'account', action: 'secondFactorConfirm' },
    summary: "Turn two-step verification on with the app's first code; answers the ten recovery codes, shown once",
    tag,
    schemas: (s) => ({ body: s.SecondFactorConfirmBody, response: s.SecondFactorRecoveryCodes }),
  }),
  secondFactorDisable: endpoint({
    method: 'POST',
    path: '/admin/account/second-factor/disable',
    access: { auth: 'user', records: 'own' },
    log: { module: 'account', action: 'secondFactorDisable' },
    summary: 'Turn two-step verification off with a current code or a recovery code (where it is not required)',
    tag,
    schemas: (s) => ({ body: s.SecondFactorDisableBody, response: s.Empty }),
  }),
};
