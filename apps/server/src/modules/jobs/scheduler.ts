/**
 * Periodic jobs that run in exactly one process, however many app processes share the
 * database (decision 0034). Each job has a lease row in `job_leases` (migration 0005):
 * `expires_at` is both the end of the current holder's claim and the moment the job is next
 * due. Every process polls; the one whose claim the database accepts runs the job:
 *
 *   update job_leases set holder = me, expires_at = now + interval
 *    where name = ? and expires_at <= now                        -- due: exactly one wins
 *   insert … (name, me, now + interval) on conflict do nothing    -- a job never run before
 *
 * The conditional UPDATE is atomic on SQLite (writers are serialised), PostgreSQL and
 * MySQL/MariaDB (a second UPDATE waits for the first's row lock, then re-reads the row and no
 * longer matches). While a run lasts, its holder pushes `expires_at` forward (a heartbeat), so
 * a long run is not taken over; a run cut short by stop() hands the job back at once; when a
 * holder dies, its lease runs out and the next process to poll takes the job. Instants come from each process's clock (kept in sync by NTP).
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { dialectOf } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import { nowMs } from '../../lib/time.ts';

export interface Job {
  /** Unique, at most 64 characters: the lease row's key. */
  name: string;
  /** How often the job runs, across all processes. */
  intervalMs: number;
  /** The work. `signal` aborts when the runner stops (it may already be aborted at the start): end at the next safe point. */
  run(signal: AbortSignal): Promise<void>;
}

export interface JobLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobRunnerOptions {
  db: Db;
  jobs: readonly Job[];
  /** This process's name in the lease rows (default: host, pid and a random suffix). */
  holder?: string;
  /** How often this process asks whether a job is due (default: the shortest interval, at most a minute). */
  pollMs?: number;
  /** Delay before the first poll after start (default 5 s, so start-up is not slowed). */
  firstPollMs?: number;
  now?: () => number;
  log?: JobLogger;
}

export interface JobRunner {
  readonly holder: string;
  /** Polls every job once: claims and runs the due ones. Resolves with the names of the jobs this call ran. */
  tick(): Promise<string[]>;
  /** Stops polling, aborts running jobs and waits for them to end. */
  stop(): Promise<void>;
}

export const defaultHolder = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** Claims the job `name` for `holder` until `until` if it is due (or was never run). True when this call won. */
export async function claimLease(db: Db, name: string, holder: string, until: number, now: number): Promise<boolean> {
  const updated = await db
    .updateTable('jobLeases')
    .set({ holder, expiresAt: until })
    .where('name', '=', name)
    .where('expiresAt', '<=', now)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return true;
  const insert = db.insertInto('jobLeases').values({ name, holder, expiresAt: until });
  const inserted =
    dialectOf(db) === 'mysql'
      ? await insert.ignore().executeTakeFirst()
      : await insert.onConflict((oc) => oc.column('name').doNothing()).executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Moves the holder's lease end to `until` (a heartbeat). False when the lease is no longer this holder's. */
export async function extendLease(db: Db, name: string, holder: string, until: number): Promise<boolean> {
  const updated = await db
    .updateTable('jobLeases')
    .set({ expiresAt: until })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** A runner that polls only when `tick()` is called (tests); `startJobs` adds the timer. */
export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, jobs } = options;
  const names = new Set(jobs.map((j) => j.name));
  if (names.size !== jobs.length) throw new Error('job names must be unique');
  for (const job of jobs) {
    if (job.name.length === 0 || job.name.length > 64) throw new Error(`job name "${job.name}" must be 1–64 characters`);
    if (!(job.intervalMs > 0)) throw new Error(`job ${job.name}: intervalMs must be positive`);
  }
  const holder = options.holder ?? defaultHolder();
  const now = options.now ?? nowMs;
  const controller = new AbortController();
  const running = new Map<string, Promise<void>>();

  async function runOne(job: Job): Promise<boolean> {
    if (controller.signal.aborted || running.has(job.name)) return false;
    // The turn counts as running from its claim on: a stop() while the claim is on its way
    // waits for it too, and the job then starts with its signal already aborted.
    let settle = () => {};
    running.set(
      job.name,
      new Promise<void>((resolve) => {
        settle = resolve;
      }),
    );
    try {
      return await claimAndRun(job);
    } finally {
      running.delete(job.name);
      settle();
    }
  }

  async function claimAndRun(job: Job): Promise<boolean> {
    const at = now();
    if (!(await claimLease(db, job.name, holder, at + job.intervalMs, at))) return false;
    // Heartbeat: twice per interval, so the lease never runs out while this run lasts.
    const heartbeat = setInterval(
      () => {
        extendLease(db, job.name, holder, now() + job.intervalMs).catch((err: unknown) =>
          options.log?.error({ err, job: job.name }, 'job lease not extended'),
        );
      },
      Math.max(1, Math.floor(job.intervalMs / 2)),
    );
    heartbeat.unref();
    const started = now();
    const run = job
      .run(controller.signal)
      .then(
        () => options.log?.info({ job: job.name, ms: now() - started }, 'job done'),
        (err: unknown) => options.log?.error({ err, job: job.name }, 'job failed'),
      )
      .then(async () => {
        clearInterval(heartbeat);
        // Cut short by stop(): hand the job back at once, so another process finishes it.
        if (controller.signal.aborted) await extendLease(db, job.name, holder, now()).catch(() => undefined);
      })
      .finally(() => clearInterval(heartbeat));
    await run;
    return true;
  }

  return {
    holder,
    async tick() {
      // Jobs run side by side: a long one does not hold back the others' turns.
      const outcomes = await Promise.all(
        jobs.map((job) =>
          runOne(job).catch((err: unknown) => {
            // The database was unreachable: try again at the next poll.
            options.log?.error({ err, job: job.name }, 'job lease not claimed');
            return false;
          }),
        ),
      );
      return jobs.filter((_, i) => outcomes[i]).map((j) => j.name);
    },
    async stop() {
      controller.abort();
      await Promise.allSettled([...running.values()]);
    },
  };
}

/** Starts polling (timers never keep the process alive). Call `stop()` on shutdown. */
export function startJobs(options: JobRunnerOptions): JobRunner {
  const runner = createJobRunner(options);
  const shortest = Math.min(...options.jobs.map((j) => j.intervalMs));
  const pollMs = options.pollMs ?? Math.min(shortest, 60_000);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runner.tick().finally(() => schedule(pollMs));
    }, ms);
    timer.unref();
  };
  if (options.jobs.length > 0) schedule(options.firstPollMs ?? Math.min(pollMs, 5_000));
  return {
    holder: runner.holder,
    tick: runner.tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await runner.stop();
    },
  };
}
