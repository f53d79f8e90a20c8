import type { Permission } from '@clearplay/contract';
import { PERMISSION_TREE, isPermission } from '@clearplay/contract/constants';
import type { TFunction } from 'i18next';
import type { ScreenMessageKey } from '../../locales/screens/zh-CN.ts';

/** Group keys in the tree carry a prefix so they never collide with a permission string. */
const GROUP_PREFIX = 'group:';

type GroupKey = (typeof PERMISSION_TREE)[number]['key'];

/** The translation key of each group and permission: a missing translation is a type error. */
export const groupLabelKey = (key: GroupKey): ScreenMessageKey => `permission.group.${key}`;
export const permissionLabelKey = (permission: Permission): ScreenMessageKey => `permission.${permission}`;

export interface PermissionNode {
  key: string;
  title: string;
  children?: PermissionNode[];
}

/** The role screen's tree: one node per group, a leaf per permission string, translated. */
export function permissionTreeData(t: TFunction): PermissionNode[] {
  return PERMISSION_TREE.map((group) => ({
    key: `${GROUP_PREFIX}${group.key}`,
    title: t(groupLabelKey(group.key)),
    children: group.children.map((permission) => ({ key: permission, title: t(permissionLabelKey(permission)) })),
  }));
}

/** Checked tree keys → the permission strings (group nodes dropped). */
export const toPermissions = (keys: readonly (string | number | bigint)[]): Permission[] =>
  keys.map(String).filter((key): key is Permission => isPermission(key));
