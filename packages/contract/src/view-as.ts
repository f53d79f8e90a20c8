import { Type, type Static } from 'typebox';

/**
 * Switch roles (decision 0060): `POST /admin/account/view-as` starts viewing the app as
 * a role (a super admin's session only; for a shop, as one enabled shop account), and
 * `POST /admin/account/view-as/end` switches back. While viewing, `GET /admin/user/info`
 * answers the viewed role (and account) with `viewAs` set.
 */
export const ViewAsRoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('inspector'), Type.Literal('shop')]);

export const ViewAsBody = Type.Object(
  {
    role: ViewAsRoleSchema,
    /** The shop account to view as: required for 'shop', refused for the others. */
    userId: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type ViewAsBody = Static<typeof ViewAsBody>;

/** What a session views the app as, and who is really signed in. */
export const ViewAsState = Type.Object({
  role: Type.String(),
  /** The shop account viewed as, or null (admin, inspector). */
  userId: Type.Union([Type.Integer(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  nickname: Type.Union([Type.String(), Type.Null()]),
  /** The super admin who is viewing. */
  by: Type.Object({ id: Type.Integer(), username: Type.String() }),
});
export type ViewAsState = Static<typeof ViewAsState>;

export const ViewAsEnded = Type.Object({ ended: Type.Boolean() });
export type ViewAsEnded = Static<typeof ViewAsEnded>;
