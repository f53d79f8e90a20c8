import { RoleName, Status, type ViewAsBody } from '@clearplay/contract';
import type { Db } from '../../db/index.ts';
import type { AuthUser } from '../../http/route-context.ts';
import { AppError, FieldAppError } from '../../lib/errors.ts';
import { findUserWithRoleById, setSessionView } from '../auth/auth.service.ts';

// Switch roles (decision 0060). The view is state of the session: it is written through
// auth's service, and the session check there (authenticate) answers the viewed principal.

/**
 * Starts viewing the app as `role` (for a shop, as the shop account `userId`): only a session
 * whose own user is a super admin, and not while already viewing (switch back first). Answers
 * the viewed account's username (null for admin, inspector).
 */
export async function startViewAs(db: Db, user: AuthUser, body: ViewAsBody): Promise<{ username: string | null; userId: number | null }> {
  if (user.viewAs !== undefined) throw new AppError(Status.FORBIDDEN, 'viewAs.alreadyViewing');
  if (user.role.name !== RoleName.SUPER_ADMIN) throw new AppError(Status.FORBIDDEN, 'viewAs.superAdminOnly');
  let target: { id: number; username: string } | null = null;
  if (body.role === RoleName.SHOP) {
    if (body.userId === undefined) throw new FieldAppError(400, 'userId', 'viewAs.shopRequired');
    const row = await findUserWithRoleById(db, body.userId);
    if (row === undefined || row.roleName !== RoleName.SHOP) throw new FieldAppError(400, 'userId', 'viewAs.notAShop', { id: body.userId });
    if (row.status !== 1) throw new FieldAppError(400, 'userId', 'viewAs.shopDisabled', { username: row.username });
    target = { id: row.id, username: row.username };
  } else if (body.userId !== undefined) {
    throw new FieldAppError(400, 'userId', 'viewAs.userIdOnlyForShop');
  }
  if (!(await setSessionView(db, user.sessionId, body.role, target?.id ?? null))) throw new AppError(Status.UNAUTHORIZED, 'auth.required');
  return { username: target?.username ?? null, userId: target?.id ?? null };
}

/** Switches back: clears the session's view (a no-op when not viewing). Answers whether a view ended. */
export async function endViewAs(db: Db, user: AuthUser): Promise<boolean> {
  if (user.viewAs === undefined) return false;
  await setSessionView(db, user.sessionId, null, null);
  return true;
}
