import type { Permission } from '@clearplay/contract';
import { useCurrentUser } from './current-user.ts';

/** Who is asking: the current user's id and permission strings. */
export interface Actor {
  id: number;
  permissions: readonly string[];
}

/** Does the actor hold the permission? Hides what the user may not use; the server checks every call. */
export const can = (actor: Actor | null, permission: Permission): boolean => !!actor && actor.permissions.includes(permission);

/** Any one of the permissions (a route that several permissions open). */
export const canAny = (actor: Actor | null, permissions: readonly Permission[]): boolean => permissions.some((p) => can(actor, p));

/** The current user as an Actor (null before user info loads). */
export function useActor(): Actor | null {
  const user = useCurrentUser();
  return user ? { id: user.id, permissions: user.role.permissions } : null;
}
