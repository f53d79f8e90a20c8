import { Type, type Static } from 'typebox';
import { Id, Instant, TextFilter } from './common.ts';

/** A role as the role screen sees it. Permissions come from the catalogue (permissions.ts). */
export const RoleItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  /** The English description (decision 0080): empty when none; readers then show the Chinese one. */
  descriptionEn: Type.String(),
  permissions: Type.Array(Type.String()),
  isAdmin: Type.Boolean(),
  createdTime: Instant,
  userCount: Type.Integer(),
  /** Seeded roles cannot be deleted or renamed; super_admin keeps every permission. */
  builtIn: Type.Boolean(),
});
export type RoleItem = Static<typeof RoleItem>;

export const RoleListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
    name: TextFilter,
    isAdmin: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type RoleListQuery = Static<typeof RoleListQuery>;

/** Role names are what route guards compare, so they are identifiers; the description is for people. */
const roleFields = {
  name: Type.String({ minLength: 2, maxLength: 32, pattern: '^[A-Za-z][A-Za-z0-9_-]*$' }),
  description: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  /** Optional English description (decision 0080), same length limit; empty clears it. Omitted on update: unchanged. */
  descriptionEn: Type.Optional(Type.String({ maxLength: 100 })),
  permissions: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 200, uniqueItems: true }),
  isAdmin: Type.Boolean(),
};
export const RoleCreateBody = Type.Object(roleFields, { additionalProperties: false });
export type RoleCreateBody = Static<typeof RoleCreateBody>;
export const RoleUpdateBody = Type.Object({ id: Id, ...roleFields }, { additionalProperties: false });
export type RoleUpdateBody = Static<typeof RoleUpdateBody>;
