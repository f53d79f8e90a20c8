import { Type, type Static } from 'typebox';

const MenuIconName = Type.Union([
  Type.Literal('dashboard'),
  Type.Literal('order'),
  Type.Literal('system'),
  Type.Literal('visualization'),
  Type.Literal('exception'),
  Type.Literal('form'),
]);

const menuFields = {
  /** The route's name in the shared route table (constants/routes.ts). */
  name: Type.String(),
  path: Type.String(),
  /** The web's translation key of the title. */
  locale: Type.String(),
  icon: Type.Optional(MenuIconName),
};

/** A screen of the server menu. */
export const MenuLeaf = Type.Object(menuFields);

/**
 * Spec §4 server menu (POST /api/menu): the menu of the session's role, built by the server from
 * the shared route table (constants/routes.ts `serverMenuFor`): groups with their screens, in
 * menu order. The table has two menu levels; a group's children are screens.
 */
export const MenuItem = Type.Object({ ...menuFields, children: Type.Optional(Type.Array(MenuLeaf)) });
export type MenuItem = Static<typeof MenuItem>;

export const MenuList = Type.Array(MenuItem);
export type MenuList = Static<typeof MenuList>;
