import { Type, type Static } from 'typebox';
import { ViewAsState } from './view-as.ts';

/** Spec §5: username and password cannot be empty at login. Upper bounds keep hashing cheap. */
export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: Type.String({ minLength: 1, maxLength: 128 }),
    /** "Remember password": the session lasts the long lifetime; the password is never stored. */
    remember: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

/** A session: the bearer token and when it ends. */
export const LoginSession = Type.Object({
  token: Type.String(),
  /** ISO 8601 instant at which the token expires. */
  expiresAt: Type.String(),
});
export type LoginSession = Static<typeof LoginSession>;

/**
 * The password was right, but the account signs in with a second factor (decision 0091):
 * `required`, the code of its authenticator app (or a recovery code) comes next; `enrol`, the
 * account must set up an authenticator app first (super_admin and admin by default). `ticket`
 * stands for the checked password in the next call only, until `expiresAt`, once.
 */
export const SecondFactorStep = Type.Union([Type.Literal('required'), Type.Literal('enrol')]);
export type SecondFactorStep = Static<typeof SecondFactorStep>;
export const LoginChallenge = Type.Object({
  secondFactor: SecondFactorStep,
  ticket: Type.String(),
  expiresAt: Type.String(),
});
export type LoginChallenge = Static<typeof LoginChallenge>;

/** POST /admin/user/login: a session (no second factor), or the step that comes next. */
export const LoginData = Type.Union([LoginSession, LoginChallenge]);
export type LoginData = Static<typeof LoginData>;

/** A sign-in ticket: `st_` + base64url of 32 random bytes. */
export const LoginTicket = Type.String({ minLength: 1, maxLength: 64 });
/** A six-digit authenticator code (spaces are tolerated and ignored by the server). */
export const TotpCode = Type.String({ minLength: 6, maxLength: 8 });
/** A recovery code as shown: ten letters and digits, a dash in the middle (case and dashes are ignored). */
export const RecoveryCode = Type.String({ minLength: 10, maxLength: 24 });

/** POST /admin/user/login/enrol: the secret of a new authenticator app, for a ticket of step `enrol`. */
export const LoginEnrolBody = Type.Object({ ticket: LoginTicket }, { additionalProperties: false });
export type LoginEnrolBody = Static<typeof LoginEnrolBody>;

/**
 * POST /admin/user/login/second-factor: the ticket with exactly one of the authenticator's
 * current code or an unused recovery code (recovery codes only for step `required`).
 */
export const SecondFactorBody = Type.Object(
  { ticket: LoginTicket, code: Type.Optional(TotpCode), recoveryCode: Type.Optional(RecoveryCode) },
  { additionalProperties: false },
);
export type SecondFactorBody = Static<typeof SecondFactorBody>;

/** What an authenticator app is set up with: the QR code of `otpauthUrl` (a PNG data URL) and the secret to type in instead. */
export const TotpEnrolment = Type.Object({
  /** Base32, as authenticator apps take it when typed. */
  secret: Type.String(),
  otpauthUrl: Type.String(),
  /** data:image/png;base64,… */
  qrCode: Type.String(),
});
export type TotpEnrolment = Static<typeof TotpEnrolment>;

/** The ten recovery codes, shown once: only their hashes are kept. */
export const RecoveryCodes = Type.Array(Type.String(), { minItems: 10, maxItems: 10 });

/** The session that finishes a sign-in with a second factor; `recoveryCodes` when this sign-in enrolled the factor. */
export const SecondFactorLoginData = Type.Object({
  token: Type.String(),
  expiresAt: Type.String(),
  recoveryCodes: Type.Optional(RecoveryCodes),
});
export type SecondFactorLoginData = Static<typeof SecondFactorLoginData>;

/** Spec §3 "Current user". */
export const CurrentUserRole = Type.Object({
  name: Type.String(),
  permissions: Type.Array(Type.String()),
  description: Type.String(),
  /** The English description ('' when none: readers fall back to `description`, decision 0080). */
  descriptionEn: Type.String(),
  isAdmin: Type.Boolean(),
});

export const CurrentUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  nickname: Type.String(),
  roleId: Type.Integer(),
  wechat: Type.String(),
  phone: Type.String(),
  avatar: Type.String(),
  role: CurrentUserRole,
  /**
   * Set while a super admin views the app as another role (decision 0060): the fields above are
   * then the viewed account's (or, for admin and inspector, the super admin's with the viewed role).
   */
  viewAs: Type.Optional(ViewAsState),
});
export type CurrentUser = Static<typeof CurrentUser>;
