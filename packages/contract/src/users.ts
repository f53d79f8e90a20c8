import { Type, type Static } from 'typebox';
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from './constants/auth.ts';
import { CUSTOM_DAYS_MAX } from './constants/users.ts';
import { EnabledStatus, Fen, Flag, Id, Instant, TextFilter } from './common.ts';

export const SubscriptionType = Type.Union([Type.Literal('monthly'), Type.Literal('yearly'), Type.Literal('custom')]);
export type SubscriptionType = Static<typeof SubscriptionType>;

/** none: never subscribed; active: ends more than 7 days from now; expiring: ends within 7 days; expired: ended. */
export const SubscriptionState = Type.Union([
  Type.Literal('none'),
  Type.Literal('active'),
  Type.Literal('expiring'),
  Type.Literal('expired'),
]);
export type SubscriptionState = Static<typeof SubscriptionState>;

/** A user as the management screen sees it. Never carries a password or hash. */
export const UserItem = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  nickname: Type.String(),
  roleId: Type.Integer(),
  roleName: Type.String(),
  roleIsAdmin: Type.Boolean(),
  wechat: Type.String(),
  phone: Type.String(),
  avatar: Type.String(),
  ifPublic: Flag,
  status: EnabledStatus,
  createdTime: Instant,
  loginTime: Type.Union([Instant, Type.Null()]),
  defaultPrice: Type.Integer(),
  defaultPriceCheat: Type.Integer(),
  defaultPriceSuspect: Type.Integer(),
  defaultPriceNotPass: Type.Integer(),
  serviceEndDate: Type.Union([Instant, Type.Null()]),
  subscriptionState: SubscriptionState,
  /** The latest subscription record's type and length, if any. */
  subscriptionType: Type.Union([SubscriptionType, Type.Null()]),
  durationDays: Type.Union([Type.Integer(), Type.Null()]),
  /** Whether the user signs in with an authenticator app (two-step verification, decision 0091). */
  secondFactor: Type.Boolean(),
});
export type UserItem = Static<typeof UserItem>;

export const UserListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
    username: TextFilter,
    nickname: TextFilter,
    wechat: TextFilter,
    phone: TextFilter,
    roleId: Type.Optional(Id),
    status: Type.Optional(EnabledStatus),
    subscriptionState: Type.Optional(SubscriptionState),
    createdStart: Type.Optional(Instant),
    createdEnd: Type.Optional(Instant),
  },
  { additionalProperties: false },
);
export type UserListQuery = Static<typeof UserListQuery>;

/** Light look-up for pickers ("client shop", "inspector"). */
export const UserSearchQuery = Type.Object(
  {
    keyword: TextFilter,
    roleName: Type.Optional(Type.String({ maxLength: 32 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
    /** Disabled users are left out unless this is true. */
    includeDisabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UserSearchQuery = Static<typeof UserSearchQuery>;

export const UserOption = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  nickname: Type.String(),
  roleName: Type.String(),
  status: EnabledStatus,
});
export type UserOption = Static<typeof UserOption>;

const Username = Type.String({ minLength: USERNAME_MIN, maxLength: USERNAME_MAX, pattern: '^\\S+$' });
const Password = Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX });
const Required = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });

const userFields = {
  nickname: Required(50),
  roleId: Id,
  wechat: Required(64),
  phone: Type.String({ minLength: 1, maxLength: 32, pattern: '^[0-9+\\-() ]+$' }),
  avatar: Type.Optional(Type.String({ maxLength: 500 })),
  ifPublic: Type.Optional(Flag),
  status: Type.Optional(EnabledStatus),
  defaultPrice: Fen,
  defaultPriceCheat: Fen,
  defaultPriceSuspect: Fen,
  defaultPriceNotPass: Fen,
};

export const UserCreateBody = Type.Object({ username: Username, password: Password, ...userFields }, { additionalProperties: false });
export type UserCreateBody = Static<typeof UserCreateBody>;

/** The username is fixed once created; the password changes through resetPassword. */
export const UserUpdateBody = Type.Object({ id: Id, ...userFields }, { additionalProperties: false });
export type UserUpdateBody = Static<typeof UserUpdateBody>;

export const ResetPasswordBody = Type.Object({ id: Id, newPassword: Password }, { additionalProperties: false });
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

/** POST /admin/user/resetSecondFactor (super admin): removes the user's authenticator app and recovery codes, ends their sessions. */
export const ResetSecondFactorBody = Type.Object({ id: Id }, { additionalProperties: false });
export type ResetSecondFactorBody = Static<typeof ResetSecondFactorBody>;

export const SetUserStatusBody = Type.Object({ id: Id, status: EnabledStatus }, { additionalProperties: false });
export type SetUserStatusBody = Static<typeof SetUserStatusBody>;

/**
 * Subscribe or renew: monthly 30 days, yearly 365, custom `durationDays` (1..3650).
 * Renewal extends from the current end if it is in the future, else from now.
 */
export const SetSubscriptionBody = Type.Object(
  {
    userId: Id,
    type: SubscriptionType,
    durationDays: Type.Optional(Type.Integer({ minimum: 1, maximum: CUSTOM_DAYS_MAX })),
    remark: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type SetSubscriptionBody = Static<typeof SetSubscriptionBody>;

export const CancelSubscriptionQuery = Type.Object({ userId: Id }, { additionalProperties: false });
export type CancelSubscriptionQuery = Static<typeof CancelSubscriptionQuery>;

export const SubscriptionRecord = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  action: Type.Union([Type.Literal('subscribe'), Type.Literal('renew'), Type.Literal('cancel')]),
  type: Type.Union([SubscriptionType, Type.Null()]),
  durationDays: Type.Union([Type.Integer(), Type.Null()]),
  startDate: Instant,
  endDate: Instant,
  operator: Type.String(),
  remark: Type.String(),
  createdTime: Instant,
});
export type SubscriptionRecord = Static<typeof SubscriptionRecord>;

/** GET /admin/user/subscriptions?userId=: a user's subscription records, newest first. */
export const SubscriptionListQuery = Type.Object({ userId: Id }, { additionalProperties: false });
export type SubscriptionListQuery = Static<typeof SubscriptionListQuery>;
export const SubscriptionRecordList = Type.Array(SubscriptionRecord);
export type SubscriptionRecordList = Static<typeof SubscriptionRecordList>;
