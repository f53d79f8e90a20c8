/**
 * Idempotency keys (decision 0109): a create that moves money (an order and its charge, a
 * recharge) or time (a subscription's renewal, which extends from the current end) sent again with the same `Idempotency-Key` header is answered again, not recorded
 * twice. The client makes the key once per submission (a random string, e.g. a UUID) and sends
 * it again when it sends the same submission again: after a network drop, a timeout, a second
 * click.
 *
 * - The first request with a key for (user, scope) runs; its key and its answer are written in
 *   the transaction of the write itself, so a crash leaves neither.
 * - The same key and the same body again: the stored answer, nothing written.
 * - The same key with another body: 422 (`idempotency.keyReused`), nothing written.
 * - The same key while the first is still running: the second waits on the key's primary key
 *   (the first statement of its transaction), then finds the first's answer and answers it; if
 *   its wait ends first (the database's lock budget), 409 (`idempotency.inProgress`).
 * - Without the header: the call runs as it always did.
 * A key is honoured IDEMPOTENCY_TTL_MS; the retention job removes the rows after that
 * (sweepIdempotencyKeys). A refused request (4xx) writes nothing, so it stores no answer: sent
 * again, it runs again.
 */
import { createHash } from 'node:crypto';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@clearplay/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRetryableConflict, isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { deleteInBatches } from '../../lib/batches.ts';
import { AppError } from '../../lib/errors.ts';
import { logText } from '../../lib/log-text.ts';
import { DAY_MS, nowMs } from '../../lib/time.ts';
import * as repo from './idempotency.repository.ts';

/** The request header as Node gives it (lower case). */
const HEADER = IDEMPOTENCY_HEADER.toLowerCase();
/** Set on an answer given again from a stored one. */
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key is honoured. */
export const IDEMPOTENCY_TTL_MS = DAY_MS;

/** The guarded calls. A key is one user's, for one of them. */
export type IdempotencyScope = 'order.create' | 'ledger.recharge' | 'user.subscription';

/** A request that carries a key: who, which call, the key, and its body's fingerprint. */
export interface Claim {
  userId: number;
  scope: IdempotencyScope;
  key: string;
  fingerprint: string;
}

/** JSON with the keys of every object sorted, so the same body always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (hex) of the body, keys in any order. */
export const fingerprintOf = (body: unknown): string => createHash('sha256').update(canonical(body)).digest('hex');

/**
 * The claim of a request to a guarded call: null without the header (the call runs as it always
 * did); 400 (`idempotency.badKey`) for a malformed key, or the header sent twice.
 */
export function claimOf(request: FastifyRequest, userId: number, scope: IdempotencyScope): Claim | null {
  const raw = request.headers[HEADER];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(raw)) throw new AppError(400, 'idempotency.badKey');
  return { userId, scope, key: raw, fingerprint: fingerprintOf(request.body) };
}

/** What `once` answers: the data of the answer, and whether it was given again from the stored one. */
export interface Once<T> {
  data: T;
  replayed: boolean;
}

const ofClaim = (claim: Claim): repo.KeyId => ({ userId: claim.userId, scope: claim.scope, idemKey: claim.key });

/** The stored answer of a live key: 422 when it was made for another body. */
function replay<T>(row: { fingerprint: string; answer: string | null }, claim: Claim): Once<T> {
  if (row.fingerprint !== claim.fingerprint) throw new AppError(422, 'idempotency.keyReused');
  if (row.answer === null) throw new AppError(409, 'idempotency.inProgress');
  return { data: JSON.parse(row.answer) as T, replayed: true };
}

/** The key's insert found the key taken by another request (a duplicate, or a deadlock on it). */
class KeyTaken extends Error {
  override readonly name = 'KeyTaken';
}

/** A lock wait that ran out: the first request with the key holds it still. */
const isLockTimeout = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '55P03' || code === 'ER_LOCK_WAIT_TIMEOUT';
};

/**
 * Runs `write` in a write transaction, once per claim: without a claim, exactly as
 * writeTransaction(db, write); with one, see the module's comment. `write`'s answer must be
 * JSON (it is stored as such, and given again parsed).
 */
export async function once<T>(db: Db, claim: Claim | null, write: (trx: Db) => Promise<T>, now: () => number = nowMs): Promise<Once<T>> {
  if (claim === null) return { data: await writeTransaction(db, write), replayed: false };
  const earlier = await repo.findKey(db, ofClaim(claim));
  const expired = earlier !== undefined && Number(earlier.expiresAt) <= now();
  if (earlier !== undefined && !expired) return replay<T>(earlier, claim);
  const key = ofClaim(claim);
  try {
    const data = await writeTransaction(db, async (trx) => {
      const at = now();
      // An expired key not yet swept is a new one. (Only then: a delete of a missing row would
      // take a gap lock on MySQL, and two such requests would deadlock on their inserts.)
      if (expired) await repo.deleteExpiredKey(trx, key, at);
      // First: a second request with this key waits here until this transaction ends.
      try {
        await repo.insertKey(trx, key, claim.fingerprint, at, at + IDEMPOTENCY_TTL_MS);
      } catch (error) {
        if (isLockTimeout(error)) throw new AppError(409, 'idempotency.inProgress');
        if (isUniqueViolation(error) || isRetryableConflict(error)) throw new KeyTaken();
        throw error;
      }
      const result = await write(trx);
      await repo.storeAnswer(trx, key, 200, JSON.stringify(result));
      return result;
    });
    return { data, replayed: false };
  } catch (error) {
    if (!(error instanceof KeyTaken)) throw error;
    // Another request with the key got there first: its answer, now that it has committed.
    const winner = await repo.findKey(db, key);
    if (winner !== undefined && Number(winner.expiresAt) > now()) return replay<T>(winner, claim);
    throw new AppError(409, 'idempotency.inProgress');
  }
}

/**
 * After `once`: an answer given again says so (the `Idempotent-Replayed` header), and its
 * operation-log line says nothing was recorded. Returns `replayed`.
 */
export function markReplay(request: FastifyRequest, reply: FastifyReply, claim: Claim | null, replayed: boolean): boolean {
  if (!replayed || claim === null) return false;
  void reply.header(REPLAYED_HEADER, 'true');
  request.logContent = logText('log.text.idempotency.replayed', { key: claim.key });
  return true;
}

/** Removes the keys expired before `now`, `batch` at a time (the retention job). */
export const sweepIdempotencyKeys = (db: Db, now: number, batch = 1000, signal?: AbortSignal): Promise<number> =>
  deleteInBatches(() => repo.deleteExpiredKeys(db, now, batch), signal);
