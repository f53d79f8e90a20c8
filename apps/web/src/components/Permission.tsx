import type { ReactNode } from 'react';
import { useRoleName } from '../lib/current-user.ts';

/** True when the role may see something limited to `roles` (empty list = everyone). */
export function hasRole(roles: readonly string[], role: string | null | undefined): boolean {
  if (!Array.isArray(roles)) throw new Error('need roles!');
  return roles.length === 0 || (!!role && roles.includes(role));
}

/**
 * Spec §6 visibility component: shows `children` only when the current user's role name is
 * in `roles`; an empty list shows them to everyone. `roles` must be an array: anything else
 * throws Error('need roles!') (spec §5).
 *
 *   <Permission roles={['super_admin']}><Button>Delete</Button></Permission>
 *
 * It hides, it does not protect: the server checks every call's permission.
 */
export function Permission({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  const role = useRoleName();
  return hasRole(roles, role) ? <>{children}</> : null;
}

/** The same check as a hook, for code that needs a boolean. */
export function useHasRole(roles: readonly string[]): boolean {
  return hasRole(roles, useRoleName());
}
