import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';

/** A limited call as counted: the calls in the window so far (this one included) and the ms left in it. */
export interface Counted {
  current: number;
  ttl: number;
}

/**
 * MySQL answers the count and the window's end through the statement's insert id (below): the
 * count times this, plus the ms left. Windows are shorter than 2^32 ms (49 days) and the count
 * stops at HITS_CAP, so the sum stays below 2^53 and reads exactly as a JavaScript number.
 */
const SHIFT = 2 ** 32;
/** Counts stop here on MySQL (far above any limit: only "over the limit" matters past it). */
export const HITS_CAP = 1_000_000;
export const MAX_WINDOW_MS = SHIFT - 1;

/**
 * Counts one call of `clientKey` on `bucket` in one statement: an upsert on (bucket, client_key)
 * that starts a window of `windowMs` at the first call, adds one inside it, and starts a new one
 * at the first call after it ended. Portable like the other counters (logs.repository bumpDaily,
 * tracking.repository bumpNamed): ON CONFLICT on SQLite and PostgreSQL, which answer the row
 * through RETURNING; ON DUPLICATE KEY UPDATE on MySQL/MariaDB, which has no RETURNING there and
 * answers through LAST_INSERT_ID(expr) instead (0 on a fresh insert: the first call of a window).
 */
export async function countCall(db: Db, bucket: string, clientKey: string, windowMs: number, now: number): Promise<Counted> {
  if (!Number.isInteger(windowMs) || windowMs <= 0 || windowMs > MAX_WINDOW_MS) {
    throw new Error(`rate limit window must be 1..${MAX_WINDOW_MS} ms, got ${windowMs}`);
  }
  const resetAt = now + windowMs;
  const insert = db.insertInto('rateLimits').values({ bucket, clientKey, resetAt, hits: 1 });
  if (dialectOf(db) === 'mysql') {
    // Assignments run left to right and see the columns already assigned: `hits` first, while
    // reset_at still holds the old window's end.
    const ended = sql<boolean>`${sql.ref('resetAt')} <= ${now}`;
    const hits = sql<number>`least(if(${ended}, 1, ${sql.ref('hits')} + 1), ${HITS_CAP})`;
    const left = sql<number>`if(${ended}, ${windowMs}, ${sql.ref('resetAt')} - ${now})`;
    const result = await insert
      .onDuplicateKeyUpdate({
        hits: sql<number>`last_insert_id(${hits} * ${SHIFT} + ${left}) div ${SHIFT}`,
        resetAt: sql<number>`if(${ended}, ${resetAt}, ${sql.ref('resetAt')})`,
      })
      .executeTakeFirstOrThrow();
    const packed = Number(result.insertId ?? 0);
    if (packed === 0) return { current: 1, ttl: windowMs };
    return { current: Math.floor(packed / SHIFT), ttl: packed % SHIFT };
  }
  const ended = sql<boolean>`${sql.ref('rateLimits.resetAt')} <= ${now}`;
  const row = await insert
    .onConflict((oc) =>
      oc.columns(['bucket', 'clientKey']).doUpdateSet({
        hits: sql<number>`case when ${ended} then 1 else ${sql.ref('rateLimits.hits')} + 1 end`,
        resetAt: sql<number>`case when ${ended} then ${resetAt} else ${sql.ref('rateLimits.resetAt')} end`,
      }),
    )
    .returning(['hits', 'resetAt'])
    .executeTakeFirstOrThrow();
  return { current: Number(row.hits), ttl: Number(row.resetAt) - now };
}

/**
 * Removes up to about `batch` windows that ended before `before` (rate_limits_reset_idx): the
 * batch-th earliest end bounds the delete, so each statement is short and index-driven.
 * Answers how many went.
 */
export async function deleteEndedWindows(db: Db, before: number, batch: number): Promise<number> {
  const ends = await db.selectFrom('rateLimits').select('resetAt').where('resetAt', '<', before).orderBy('resetAt').limit(batch).execute();
  const last = ends.at(-1);
  if (last === undefined) return 0;
  const result = await db
    .deleteFrom('rateLimits')
    .where('resetAt', '<=', Number(last.resetAt))
    .where('resetAt', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
