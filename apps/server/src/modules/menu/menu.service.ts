import { serverMenuFor, type MenuList } from '@clearplay/contract';
import type { AuthUser } from '../../http/route-context.ts';

/**
 * Spec §4 server menu: the menu of the session's role, from the route table and role rule the
 * web shares (contract constants/routes.ts), so the server menu never lists a route the role
 * guard would refuse, nor leaves out one it allows. Nothing is read from the database: the
 * session already carries the role.
 */
export function menuFor(user: Pick<AuthUser, 'role'>): MenuList {
  return serverMenuFor(user.role.name);
}
