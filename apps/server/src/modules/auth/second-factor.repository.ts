import type { Db } from '../../db/index.ts';
import { deleteRowsById } from './auth.repository.ts';

/** Two-step verification rows (migration 0016, decision 0091). */

export const findFactorOf = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.roleId')
    .select([
      'users.id',
      'users.username',
      'users.status',
      'users.totpSecret',
      'users.totpPendingSecret',
      'users.totpEnabledAt',
      'users.totpExempt',
      'roles.name as roleName',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();

export type FactorRow = NonNullable<Awaited<ReturnType<typeof findFactorOf>>>;

export const setPendingSecret = (db: Db, userId: number, sealed: string | null) =>
  db.updateTable('users').set({ totpPendingSecret: sealed }).where('id', '=', userId).execute();

/** Makes the pending secret the factor; answers whether it was still the same pending one. */
export async function enableFactor(db: Db, userId: number, pending: string, step: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totpSecret: pending, totpPendingSecret: null, totpEnabledAt: at, totpLastStep: step, updatedAt: at })
    .where('id', '=', userId)
    .where('totpPendingSecret', '=', pending)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes the factor, its recovery codes and the user's sign-in tickets. */
export async function clearFactor(db: Db, userId: number, at: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null, updatedAt: at })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('totpRecoveryCodes').where('userId', '=', userId).execute();
  await db.deleteFrom('loginTickets').where('userId', '=', userId).execute();
}

/** Takes the code's 30-second step as used; answers false when it (or a later one) was used already. */
export async function claimStep(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totpLastStep: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totpLastStep', 'is', null), eb('totpLastStep', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function replaceRecoveryCodes(db: Db, userId: number, hashes: readonly string[], at: number): Promise<void> {
  await db.deleteFrom('totpRecoveryCodes').where('userId', '=', userId).execute();
  await db
    .insertInto('totpRecoveryCodes')
    .values(hashes.map((codeHash) => ({ userId, codeHash, usedAt: null, createdAt: at })))
    .execute();
}

export const unusedRecoveryCodes = (db: Db, userId: number) =>
  db
    .selectFrom('totpRecoveryCodes')
    .select(['id', 'codeHash'])
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .orderBy('id')
    .execute();

export async function countUnusedRecoveryCodes(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('totpRecoveryCodes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks a recovery code used; answers false when someone used it in the meantime. */
export async function useRecoveryCode(db: Db, id: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('totpRecoveryCodes')
    .set({ usedAt: at })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A new ticket; the user's expired ones are deleted on the way (the table stays small). */
export async function insertTicket(
  db: Db,
  ticket: { tokenHash: string; userId: number; step: 'required' | 'enrol'; remember: number; createdAt: number; expiresAt: number },
): Promise<void> {
  await db.deleteFrom('loginTickets').where('userId', '=', ticket.userId).where('expiresAt', '<', ticket.createdAt).execute();
  await db
    .insertInto('loginTickets')
    .values({ ...ticket, usedAt: null })
    .execute();
}

export const findTicket = (db: Db, tokenHash: string) =>
  db
    .selectFrom('loginTickets')
    .select(['id', 'userId', 'step', 'remember', 'expiresAt', 'usedAt'])
    .where('tokenHash', '=', tokenHash)
    .executeTakeFirst();

/** Spends a ticket; answers false when it was spent already. */
export async function spendTicket(db: Db, id: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('loginTickets')
    .set({ usedAt: at })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Removes up to `batch` sign-in tickets that expired before `before`; answers how many went. No
 * index on expires_at alone, and none needed: tickets live minutes, so once the retention job
 * runs the table stays small and a scan of it is short.
 */
export const deleteExpiredTickets = async (db: Db, before: number, batch: number): Promise<number> =>
  deleteRowsById(
    db,
    'loginTickets',
    await db.selectFrom('loginTickets').select('id').where('expiresAt', '<', before).limit(batch).execute(),
  );
