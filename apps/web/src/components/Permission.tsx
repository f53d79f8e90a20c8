import type { ReactNode } from 'react';
import type { Permission as PermissionString } from '@clearplay/contract';
import { useRoleName } from '../lib/current-user.ts';
import { canAny, useActor } from '../lib/permissions.ts';

/** True when the role may see something limited to `roles` (empty list = everyone). */
export function hasRole(roles: readonly string[], role: string | null | undefined): boolean {
  if (!Array.isArray(roles)) throw new Error('need roles!');
  return roles.length === 0 || (!!role && roles.includes(role));
}

/** What a guarded element needs: any one of these permission strings, or one of these role names. */
export type Visibility = { permissions: readonly PermissionString[]; roles?: never } | { roles: readonly string[]; permissions?: never };

/**
 * The visibility component: shows `children` only to a user who may use them.
 *
 *   <Permission permissions={['user:create']}><Button>New user</Button></Permission>
 *
 * Buttons are gated by permission strings (what the server checks on the call; any one of
 * the list will do). The specification's form by role names stays available (`roles` must
 * be an array, else Error('need roles!'); an empty list shows to everyone), but the screens
 * use permissions: routes keep the role rule, buttons follow the role's permissions.
 *
 * It hides, it does not protect: the server checks every call's permission.
 */
export function Permission({ children, ...rule }: Visibility & { children: ReactNode }) {
  return useVisible(rule) ? <>{children}</> : null;
}

/** The same check as a hook, for code that needs a boolean. */
export function useVisible(rule: Visibility): boolean {
  const actor = useActor();
  const role = useRoleName();
  if (rule.permissions) return rule.permissions.length === 0 || canAny(actor, rule.permissions);
  return hasRole(rule.roles, role);
}
