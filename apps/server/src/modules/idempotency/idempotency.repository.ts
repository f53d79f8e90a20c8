/** Every query of the idempotency keys (decision 0109): one row per (user, scope, key). */
import type { Db } from '../../db/index.ts';
import type { IdempotencyKeysTable } from '../../db/schema.ts';

export interface KeyId {
  userId: number;
  scope: string;
  idemKey: string;
}

export const findKey = (db: Db, id: KeyId): Promise<IdempotencyKeysTable | undefined> =>
  db
    .selectFrom('idempotencyKeys')
    .selectAll()
    .where('userId', '=', id.userId)
    .where('scope', '=', id.scope)
    .where('idemKey', '=', id.idemKey)
    .executeTakeFirst();

/** The key's row if it expired by `now` (an expired key not yet swept, about to be used anew). */
export async function deleteExpiredKey(db: Db, id: KeyId, now: number): Promise<void> {
  await db
    .deleteFrom('idempotencyKeys')
    .where('userId', '=', id.userId)
    .where('scope', '=', id.scope)
    .where('idemKey', '=', id.idemKey)
    .where('expiresAt', '<=', now)
    .execute();
}

/** The key, without its answer yet: the first statement of the guarded write's transaction. */
export async function insertKey(db: Db, id: KeyId, fingerprint: string, now: number, expiresAt: number): Promise<void> {
  await db
    .insertInto('idempotencyKeys')
    .values({ ...id, fingerprint, status: null, answer: null, createdAt: now, expiresAt })
    .execute();
}

/** The answer, in the same transaction. */
export async function storeAnswer(db: Db, id: KeyId, status: number, answer: string): Promise<void> {
  await db
    .updateTable('idempotencyKeys')
    .set({ status, answer })
    .where('userId', '=', id.userId)
    .where('scope', '=', id.scope)
    .where('idemKey', '=', id.idemKey)
    .execute();
}

/** Up to `batch` of the keys expired before `now`, oldest first; answers how many went. */
export async function deleteExpiredKeys(db: Db, now: number, batch: number): Promise<number> {
  const ends = await db
    .selectFrom('idempotencyKeys')
    .select('expiresAt')
    .where('expiresAt', '<', now)
    .orderBy('expiresAt')
    .limit(batch)
    .execute();
  const last = ends.at(-1);
  if (last === undefined) return 0;
  const result = await db
    .deleteFrom('idempotencyKeys')
    .where('expiresAt', '<=', Number(last.expiresAt))
    .where('expiresAt', '<', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
