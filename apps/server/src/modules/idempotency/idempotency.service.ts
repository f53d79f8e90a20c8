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
/**
 * The largest answer stored to be given again (its JSON in UTF-8; MySQL's mediumtext holds 16 MiB).
 * An import's report of many rejected rows can pass it: that key answers 409
 * (`idempotency.answerTooLarge`, "already done"), still never running the write twice.
 */
export const IDEMPOTENCY_ANSWER_MAX_BYTES = 8 * 1024 * 1024;
/** The stored status of an answer too large to store. */
const TOO_LARGE = 413;

/** The guarded calls. A key is one user's, for one of them. */
export type IdempotencyScope = 'order.create' | 'ledger.recharge' | 'user.subscription' | 'order.import';

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
 * did); 400 (`idempotency.badKey`) for a malformed key, or the header sent twice. `body` is what
 * makes two requests the same: the JSON body, or for an upload what the handler read of it.
 */
export function claimOf(request: FastifyRequest, userId: number, scope: IdempotencyScope, body: unknown = request.body): Claim | null {
  const raw = request.headers[HEADER];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(raw)) throw new AppError(400, 'idempotency.badKey');
  return { userId, scope, key: raw, fingerprint: fingerprintOf(body) };
}

/** What `once` answers: the data of the answer, and whether it was given again from the stored one. */
export interface Once<T> {
  data: T;
  replayed: boolean;
}

const ofClaim = (claim: Claim): repo.KeyId => ({ userId: claim.userId, scope: claim.scope, idemKey: claim.key });

/** The stored answer of a live key: 422 when it was made for another body. */
function replay<T>(row: { fingerprint: string; status: number | null; answer: string | null }, claim: Claim): Once<T> {
  if (row.fingerprint !== claim.fingerprint) throw new AppError(422, 'idempotency.keyReused');
  if (row.answer === null) throw new AppError(409, 'idempotency.inProgress');
  if (Number(row.status) === TOO_LARGE) throw new AppError(409, 'idempotency.answerTooLarge');
  return { data: JSON.parse(row.answer) as T, replayed: true };
}

/** The key's insert found the key taken by another request (a duplicate, or a deadlock on it). */
class KeyTaken extends Error {
  override readonly name = 'KeyTaken';
}

/** KeyTaken, also as it comes back from the import's thread (rebuilt there by its name, import/thread.ts). */
const isKeyTaken = (error: unknown): boolean => error instanceof KeyTaken || (error instanceof Error && error.name === 'KeyTaken');

/** A lock wait that ran out: the first request with the key holds it still. */
const isLockTimeout = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '55P03' || code === 'ER_LOCK_WAIT_TIMEOUT';
};

/**
 * A claim about to be used in a write's transaction: plain data, so it can go to another thread
 * with the write (the order import's, import/thread.ts). `expired`: the key's row is there but
 * expired, and is replaced.
 */
export interface Guard {
  claim: Claim;
  expired: boolean;
}

/**
 * The first statement of a guarded write's transaction: the key, without its answer yet. A second
 * request with the key waits here until this transaction ends (PostgreSQL, InnoDB; SQLite's
 * writers are serial already). Its wait running out answers 409; the key found taken throws
 * KeyTaken, for `once` to answer the first's answer.
 */
export async function claimIn(trx: Db, guard: Guard, at: number): Promise<void> {
  const key = ofClaim(guard.claim);
  // An expired key not yet swept is a new one. (Only then: a delete of a missing row would
  // take a gap lock on MySQL, and two such requests would deadlock on their inserts.)
  if (guard.expired) await repo.deleteExpiredKey(trx, key, at);
  try {
    await repo.insertKey(trx, key, guard.claim.fingerprint, at, at + IDEMPOTENCY_TTL_MS);
  } catch (error) {
    if (isLockTimeout(error)) throw new AppError(409, 'idempotency.inProgress');
    if (isUniqueViolation(error) || isRetryableConflict(error)) throw new KeyTaken();
    throw error;
  }
}

/**
 * The last statement of a guarded write's transaction: its answer (JSON), given again to the same
 * request; past `max` bytes, only that the write was done.
 */
export function answerIn(trx: Db, guard: Guard, data: unknown, max = IDEMPOTENCY_ANSWER_MAX_BYTES): Promise<void> {
  const json = JSON.stringify(data);
  const fits = json.length <= max / 3 || Buffer.byteLength(json) <= max;
  return repo.storeAnswer(trx, ofClaim(guard.claim), fits ? 200 : TOO_LARGE, fits ? json : 'null');
}

/** Before the write: the stored answer of a live key (or 422), else the guard to write with. */
async function guardOf<T>(db: Db, claim: Claim, now: () => number): Promise<Once<T> | Guard> {
  const earlier = await repo.findKey(db, ofClaim(claim));
  const expired = earlier !== undefined && Number(earlier.expiresAt) <= now();
  if (earlier !== undefined && !expired) return replay<T>(earlier, claim);
  return { claim, expired };
}

/** After a write that found its key taken: the first request's answer, now that it has committed. */
async function winnerOf<T>(db: Db, claim: Claim, now: () => number): Promise<Once<T>> {
  const winner = await repo.findKey(db, ofClaim(claim));
  if (winner !== undefined && Number(winner.expiresAt) > now()) return replay<T>(winner, claim);
  throw new AppError(409, 'idempotency.inProgress');
}

/**
 * Runs `write` in a write transaction, once per claim: without a claim, exactly as
 * writeTransaction(db, write); with one, see the module's comment. `write`'s answer must be
 * JSON (it is stored as such, and given again parsed).
 */
export async function once<T>(db: Db, claim: Claim | null, write: (trx: Db) => Promise<T>, now: () => number = nowMs): Promise<Once<T>> {
  if (claim === null) return { data: await writeTransaction(db, write), replayed: false };
  const guard = await guardOf<T>(db, claim, now);
  if (!('claim' in guard)) return guard;
  try {
    const data = await writeTransaction(db, async (trx) => {
      await claimIn(trx, guard, now());
      const result = await write(trx);
      await answerIn(trx, guard, result);
      return result;
    });
    return { data, replayed: false };
  } catch (error) {
    if (!isKeyTaken(error)) throw error;
    return winnerOf<T>(db, claim, now);
  }
}

/** The keys whose write runs now in this process, by `onceApart` (user, scope, key). */
const running = new Set<string>();

/**
 * `once` for a write that runs its own transaction, elsewhere (the order import, on its thread):
 * `run` is handed the guard (null without a claim) and must call claimIn as its transaction's
 * first statement and answerIn as its last. Such a write can take a while (a large file), so a
 * second request with a key whose write runs in this process answers 409
 * (`idempotency.inProgress`) at once instead of waiting on the key's lock for the whole write;
 * from another process it waits on the lock as for `once`, at most the lock budget.
 */
export async function onceApart<T>(
  db: Db,
  claim: Claim | null,
  run: (guard: Guard | null) => Promise<T>,
  now: () => number = nowMs,
): Promise<Once<T>> {
  if (claim === null) return { data: await run(null), replayed: false };
  const guard = await guardOf<T>(db, claim, now);
  if (!('claim' in guard)) return guard;
  const id = JSON.stringify([claim.userId, claim.scope, claim.key]);
  if (running.has(id)) throw new AppError(409, 'idempotency.inProgress');
  running.add(id);
  try {
    return { data: await run(guard), replayed: false };
  } catch (error) {
    if (!isKeyTaken(error)) throw error;
    return winnerOf<T>(db, claim, now);
  } finally {
    running.delete(id);
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
