import { sql, type CompiledQuery } from 'kysely';
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

interface CallParams {
  bucket: string;
  clientKey: string;
  now: number;
  resetAt: number;
  windowMs: number;
}

/**
 * The upsert of one counted call (countCall), for SQLite and PostgreSQL (ON CONFLICT … RETURNING)
 * or MySQL/MariaDB (ON DUPLICATE KEY UPDATE, which has no RETURNING there: the statement answers
 * through LAST_INSERT_ID(expr) instead, 0 on a fresh insert, the first call of a window). Portable
 * like the app's other counters (logs.repository bumpDaily, tracking.repository bumpNamed).
 */
function upsertCall(db: Db, p: CallParams) {
  const insert = db.insertInto('rateLimits').values({ bucket: p.bucket, clientKey: p.clientKey, resetAt: p.resetAt, hits: 1 });
  if (dialectOf(db) === 'mysql') {
    // Assignments run left to right and see the columns already assigned: `hits` first, while
    // reset_at still holds the old window's end.
    const ended = sql<boolean>`${sql.ref('resetAt')} <= ${p.now}`;
    const hits = sql<number>`least(if(${ended}, 1, ${sql.ref('hits')} + 1), ${HITS_CAP})`;
    const left = sql<number>`if(${ended}, ${p.windowMs}, ${sql.ref('resetAt')} - ${p.now})`;
    return insert.onDuplicateKeyUpdate({
      hits: sql<number>`last_insert_id(${hits} * ${SHIFT} + ${left}) div ${SHIFT}`,
      resetAt: sql<number>`if(${ended}, ${p.resetAt}, ${sql.ref('resetAt')})`,
    });
  }
  const ended = sql<boolean>`${sql.ref('rateLimits.resetAt')} <= ${p.now}`;
  return insert
    .onConflict((oc) =>
      oc.columns(['bucket', 'clientKey']).doUpdateSet({
        hits: sql<number>`case when ${ended} then 1 else ${sql.ref('rateLimits.hits')} + 1 end`,
        resetAt: sql<number>`case when ${ended} then ${p.resetAt} else ${sql.ref('rateLimits.resetAt')} end`,
      }),
    )
    .returning(['hits', 'resetAt']);
}

/** Values no call can have, bound in place of each parameter when the upsert is compiled. */
const PLACEHOLDERS: CallParams = {
  bucket: '\u0000bucket',
  clientKey: '\u0000client',
  now: -7_000_001,
  resetAt: -7_000_002,
  windowMs: -7_000_003,
};
const SLOTS = Object.keys(PLACEHOLDERS) as (keyof CallParams)[];

interface Compiled {
  query: CompiledQuery;
  /** For each bound parameter, the call's value it takes, or null for a constant of the statement. */
  slots: (keyof CallParams | null)[];
}
const compiledByDb = new WeakMap<Db, Compiled>();

/**
 * The upsert is built and compiled once per database and then run with each call's values (the
 * way preparedRead serves reads): building it through Kysely cost more CPU than running it.
 */
function compiledFor(db: Db): Compiled {
  let compiled = compiledByDb.get(db);
  if (compiled === undefined) {
    const query = upsertCall(db, PLACEHOLDERS).compile();
    const slots = query.parameters.map((value) => SLOTS.find((slot) => PLACEHOLDERS[slot] === value) ?? null);
    // Every dialect binds these (MySQL also binds windowMs).
    for (const slot of ['bucket', 'clientKey', 'now', 'resetAt'] as const) {
      if (!slots.includes(slot)) throw new Error(`rate limit: the upsert binds no ${slot}`);
    }
    compiled = { query, slots };
    compiledByDb.set(db, compiled);
  }
  return compiled;
}

/**
 * Counts one call of `clientKey` on `bucket` in one statement: an upsert on (bucket, client_key)
 * that starts a window of `windowMs` at the first call, adds one inside it, and starts a new one
 * at the first call after it ended.
 */
export async function countCall(db: Db, bucket: string, clientKey: string, windowMs: number, now: number): Promise<Counted> {
  if (!Number.isInteger(windowMs) || windowMs <= 0 || windowMs > MAX_WINDOW_MS) {
    throw new Error(`rate limit window must be 1..${MAX_WINDOW_MS} ms, got ${windowMs}`);
  }
  const values: CallParams = { bucket, clientKey, now, resetAt: now + windowMs, windowMs };
  const { query, slots } = compiledFor(db);
  const parameters = query.parameters.map((constant, i) => {
    const slot = slots[i];
    return slot === null || slot === undefined ? constant : values[slot];
  });
  const result = await db.executeQuery<{ hits: number; resetAt: number }>({ ...query, parameters });
  if (dialectOf(db) === 'mysql') {
    const packed = Number(result.insertId ?? 0);
    if (packed === 0) return { current: 1, ttl: windowMs };
    return { current: Math.floor(packed / SHIFT), ttl: packed % SHIFT };
  }
  const row = result.rows[0];
  if (row === undefined) throw new Error('rate limit: the upsert answered no row');
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
