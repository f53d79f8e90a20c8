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

export const LoginData = Type.Object({
  token: Type.String(),
  /** ISO 8601 instant at which the token expires. */
  expiresAt: Type.String(),
});
export type LoginData = Static<typeof LoginData>;

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
