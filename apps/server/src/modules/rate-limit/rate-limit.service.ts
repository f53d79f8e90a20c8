import { createHash } from 'node:crypto';
import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
  RateLimitOptions,
  RateLimitPluginOptions,
} from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { deleteInBatches } from '../../lib/batches.ts';
import { MINUTE_MS, nowMs } from '../../lib/time.ts';
import { countCall, deleteEndedWindows } from './rate-limit.repository.ts';

/** Longer client keys (a custom key generator's) are stored as a hash of this length or less. */
const CLIENT_KEY_MAX = 128;
/** A failing store is logged at most once in this period (with how many failures went unlogged). */
const FAILURE_LOG_EVERY_MS = MINUTE_MS;

export interface DatabaseStoreDeps {
  db: Db;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** The clock (tests); defaults to nowMs. */
  now?: () => number;
}

const clientKeyOf = (key: string): string =>
  key.length <= CLIENT_KEY_MAX ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;

/** The route a child store counts for: method and URL pattern, e.g. "GET /api/public/lookup". */
function bucketOf(route: { method?: string | string[]; url?: string } | undefined, groupId: string | undefined): string {
  const method = Array.isArray(route?.method) ? route.method.join(',') : (route?.method ?? '');
  const name = route?.url === undefined ? `group:${groupId ?? '*'}` : `${method} ${route.url}`;
  if (name.length > 255) throw new Error(`rate limit: the route name is longer than 255 characters: ${name.slice(0, 80)}…`);
  return name;
}

/**
 * A store for @fastify/rate-limit that counts in the app's database (table rate_limits, 0014;
 * decision 0074), so every process on the database shares one count per client and route, and a
 * restart forgets none. The semantics are the plugin's in-memory store's: a window of
 * `timeWindow` starts at a client's first call on a route, and `ttl` is what is left of it.
 * Each counted call is one statement (rate-limit.repository countCall).
 *
 * A failure is handed to the plugin as an error after it is logged (at most once a minute); the
 * options of `databaseRateLimit` make the plugin let the call through then (fail open).
 * `continueExceeding` and `exponentialBackoff` are not supported (the app uses neither).
 */
export function databaseRateLimitStore(deps: DatabaseStoreDeps): FastifyRateLimitStoreCtor {
  const now = deps.now ?? nowMs;
  const failures = { lastLoggedAt: -Infinity, unlogged: 0 };
  const reportFailure = (error: unknown, bucket: string) => {
    const at = now();
    if (at - failures.lastLoggedAt < FAILURE_LOG_EVERY_MS) {
      failures.unlogged += 1;
      return;
    }
    deps.log.error(
      { err: error, bucket, unloggedSinceLast: failures.unlogged },
      'rate limit: the database store failed; the call was let through (fail open, decision 0074)',
    );
    failures.lastLoggedAt = at;
    failures.unlogged = 0;
  };

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly bucket: string;

    constructor(options: FastifyRateLimitOptions & Partial<RateLimitOptions>, bucket = 'group:*') {
      if (options.continueExceeding === true || options.exponentialBackoff === true) {
        throw new Error('rate limit: the database store supports neither continueExceeding nor exponentialBackoff');
      }
      this.bucket = bucket;
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      countCall(deps.db, this.bucket, clientKeyOf(key), timeWindow, now()).then(
        (counted) => callback(null, counted),
        (error: unknown) => {
          reportFailure(error, this.bucket);
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    }

    child(routeOptions: RateLimitOptions & { path: string; prefix: string }): FastifyRateLimitStore {
      const { routeInfo } = routeOptions as { routeInfo?: { method?: string | string[]; url?: string } };
      return new DatabaseRateLimitStore(routeOptions, bucketOf(routeInfo, routeOptions.groupId));
    }
  }
  return DatabaseRateLimitStore;
}

/**
 * The plugin options every limited module registers @fastify/rate-limit with: only routes that
 * opt in are counted (`global: false`), in the database store, and a store failure lets the call
 * through (`skipOnError`, decision 0074); the module gives its own 429 answer.
 */
export const databaseRateLimit = (
  deps: DatabaseStoreDeps,
  errorResponseBuilder: NonNullable<RateLimitPluginOptions['errorResponseBuilder']>,
): RateLimitPluginOptions => ({
  global: false,
  store: databaseRateLimitStore(deps),
  skipOnError: true,
  errorResponseBuilder,
});

/**
 * Removes, batch by batch, the windows that ended before `before` (the retention job, decision
 * 0074): an ended window counts as no window, so nothing is lost. Answers how many went.
 */
export const removeEndedWindows = (db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> =>
  deleteInBatches(() => deleteEndedWindows(db, before, batch), signal);
