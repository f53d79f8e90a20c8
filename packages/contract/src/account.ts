import { Type, type Static } from 'typebox';
import { Instant } from './common.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from './constants/index.ts';
import { SubscriptionState } from './users.ts';

/**
 * The signed-in user's own account (user centre `/user/info`, user settings
 * `/user/setting`): GET/POST /admin/account/profile, POST /admin/account/password,
 * GET /admin/account/logins, GET /admin/account/sessions, POST /admin/account/sessions/end-others.
 * Every call acts on the session's own user only.
 */
export const AccountLocale = Type.Union([Type.Literal('zh-CN'), Type.Literal('en-US')]);

export const AccountProfile = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  nickname: Type.String(),
  roleName: Type.String(),
  roleDescription: Type.String(),
  /** The role's English description (decision 0080), '' when none. */
  roleDescriptionEn: Type.String(),
  wechat: Type.String(),
  phone: Type.String(),
  avatar: Type.String(),
  /** The language chosen in the settings; null: the browser's. Applied at sign-in. */
  locale: Type.Union([AccountLocale, Type.Null()]),
  loginTime: Type.Union([Instant, Type.Null()]),
  createdTime: Instant,
  /** A shop (a role that is not an administrator): its subscription and balance. */
  shop: Type.Union([
    Type.Object({
      balance: Type.Integer(),
      serviceEndDate: Type.Union([Instant, Type.Null()]),
      subscriptionState: SubscriptionState,
    }),
    Type.Null(),
  ]),
});
export type AccountProfile = Static<typeof AccountProfile>;

const Required = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });

/**
 * POST /admin/account/profile. Only the nickname is required: the spec's "wechat, phone required"
 * is the user-management form's rule; a person saves their own settings with the data they have
 * (decision 0084). Chat ID and phone: '' clears, omitted keeps; a phone given is checked.
 */
export const AccountUpdateBody = Type.Object(
  {
    nickname: Required(50),
    wechat: Type.Optional(Type.String({ maxLength: 64 })),
    phone: Type.Optional(Type.String({ maxLength: 32, pattern: '^[0-9+\\-() ]*$' })),
    avatar: Type.Optional(Type.String({ maxLength: 500 })),
    locale: Type.Optional(Type.Union([AccountLocale, Type.Null()])),
  },
  { additionalProperties: false },
);
export type AccountUpdateBody = Static<typeof AccountUpdateBody>;

/**
 * POST /admin/account/avatar (decision 0062): the URL the uploader got for an `avatar` upload
 * of this user (the file must exist), or '' to remove the picture.
 */
export const AccountAvatarBody = Type.Object({ avatar: Type.String({ maxLength: 500 }) }, { additionalProperties: false });
export type AccountAvatarBody = Static<typeof AccountAvatarBody>;

export const PasswordChangeBody = Type.Object(
  {
    oldPassword: Type.String({ minLength: 1, maxLength: 128 }),
    newPassword: Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }),
  },
  { additionalProperties: false },
);
export type PasswordChangeBody = Static<typeof PasswordChangeBody>;
export const PasswordChangeResult = Type.Object({ sessionsEnded: Type.Integer({ minimum: 0 }) });
export type PasswordChangeResult = Static<typeof PasswordChangeResult>;

export const AccountPageQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  },
  { additionalProperties: false },
);
export type AccountPageQuery = Static<typeof AccountPageQuery>;

export const LoginHistoryItem = Type.Object({
  id: Type.Integer(),
  ip: Type.String(),
  userAgent: Type.String(),
  success: Type.Boolean(),
  reason: Type.String(),
  createdTime: Instant,
});
export type LoginHistoryItem = Static<typeof LoginHistoryItem>;
export const LoginHistoryPage = Type.Object({ list: Type.Array(LoginHistoryItem), total: Type.Integer({ minimum: 0 }) });
export type LoginHistoryPage = Static<typeof LoginHistoryPage>;

export const ActiveSession = Type.Object({
  id: Type.Integer(),
  ip: Type.String(),
  userAgent: Type.String(),
  createdTime: Instant,
  lastSeenTime: Instant,
  expiresTime: Instant,
  /** The session of this very call. */
  current: Type.Boolean(),
});
export type ActiveSession = Static<typeof ActiveSession>;

export const EndedSessions = Type.Object({ ended: Type.Integer({ minimum: 0 }) });
export type EndedSessions = Static<typeof EndedSessions>;

/**
 * GET /admin/account/second-factor: the user's two-step verification (decision 0091).
 * - enabled: an authenticator app is set up (enabledTime: since when);
 * - required: the user may not turn it off (their role, TOTP_REQUIRED);
 * - exempt: a demo account, never required to have one;
 * - recoveryCodesLeft: unused recovery codes.
 */
export const SecondFactorState = Type.Object({
  enabled: Type.Boolean(),
  required: Type.Boolean(),
  exempt: Type.Boolean(),
  enabledTime: Type.Union([Instant, Type.Null()]),
  recoveryCodesLeft: Type.Integer({ minimum: 0 }),
});
export type SecondFactorState = Static<typeof SecondFactorState>;

/** POST /admin/account/second-factor/confirm: the first code of the app being set up. */
export const SecondFactorConfirmBody = Type.Object({ code: Type.String({ minLength: 6, maxLength: 8 }) }, { additionalProperties: false });
export type SecondFactorConfirmBody = Static<typeof SecondFactorConfirmBody>;

/** POST /admin/account/second-factor/disable: a current code (or an unused recovery code). */
export const SecondFactorDisableBody = Type.Object(
  {
    code: Type.Optional(Type.String({ minLength: 6, maxLength: 8 })),
    recoveryCode: Type.Optional(Type.String({ minLength: 10, maxLength: 24 })),
  },
  { additionalProperties: false },
);
export type SecondFactorDisableBody = Static<typeof SecondFactorDisableBody>;

/** The ten recovery codes of a confirmed enrolment, shown once. */
export const SecondFactorRecoveryCodes = Type.Object({ recoveryCodes: Type.Array(Type.String(), { minItems: 10, maxItems: 10 }) });
export type SecondFactorRecoveryCodes = Static<typeof SecondFactorRecoveryCodes>;
