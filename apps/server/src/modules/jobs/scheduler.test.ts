import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type Db } from '../../db/index.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../../test/context.ts';
import { claimLease, createJobRunner, startJobs, type Job, type JobRunner } from './scheduler.ts';

/**
 * The single runner on the configured database (TEST_DB): two app instances, each with its
 * own connection pool and lease holder, share one database. For each due tick exactly one of
 * them runs the job; the other takes over once the holder's lease has run out; a long run
 * keeps its lease alive.
 */

const INTERVAL = 60_000;

let database: TestDatabase;
let dbA: Db;
let dbB: Db;
let clock = 1_000_000;
const now = () => clock;

beforeAll(async () => {
  database = await createTestDatabase();
  dbA = createDb(database.target);
  dbB = createDb(database.target);
  await migrateToLatest(dbA);
});
afterAll(async () => {
  await Promise.all([dbA.destroy(), dbB.destroy()]);
  await database.drop();
});

/** A job that counts its runs per holder. */
function countingJob(name: string, runs: string[], holder: string, body?: (signal: AbortSignal) => Promise<void>): Job {
  return {
    name,
    intervalMs: INTERVAL,
    async run(signal) {
      runs.push(holder);
      await body?.(signal);
    },
  };
}

describe('single runner', () => {
  it('runs a due job in exactly one of two instances, tick after tick, and hands it over when the holder stops', async () => {
    const runs: string[] = [];
    const a = createJobRunner({ db: dbA, holder: 'instance-a', now, jobs: [countingJob('race', runs, 'a')] });
    const b = createJobRunner({ db: dbB, holder: 'instance-b', now, jobs: [countingJob('race', runs, 'b')] });

    // Both poll at the same moment, five intervals in a row: one run per interval.
    for (let round = 1; round <= 5; round++) {
      const [ranA, ranB] = await Promise.all([a.tick(), b.tick()]);
      expect(ranA.length + ranB.length, `round ${round}`).toBe(1);
      expect(runs).toHaveLength(round);
      // Polling again within the interval runs nothing, in either instance.
      clock += INTERVAL / 2;
      expect([...(await a.tick()), ...(await b.tick())]).toEqual([]);
      clock += INTERVAL / 2;
    }

    // The last winner stops polling (its process died). Before its lease ends nobody runs…
    const winner = runs.at(-1) === 'a' ? a : b;
    const other = winner === a ? b : a;
    const row = await dbA.selectFrom('jobLeases').selectAll().where('name', '=', 'race').executeTakeFirstOrThrow();
    expect(row.holder).toBe(winner.holder);
    await winner.stop();
    clock = Number(row.expiresAt) - 1;
    expect(await other.tick()).toEqual([]);
    // …once it has run out, the other instance takes the job over.
    clock = Number(row.expiresAt);
    expect(await other.tick()).toEqual(['race']);
    expect(runs.at(-1)).toBe(winner === a ? 'b' : 'a');
    const taken = await dbB.selectFrom('jobLeases').selectAll().where('name', '=', 'race').executeTakeFirstOrThrow();
    expect(taken).toEqual({ name: 'race', holder: other.holder, expiresAt: clock + INTERVAL });
    await other.stop();
  });

  it('lets exactly one claim win when many race for a job never run before', async () => {
    const holders = Array.from({ length: 6 }, (_, i) => `h${i}`);
    const won = await Promise.all(holders.map((h, i) => claimLease(i % 2 === 0 ? dbA : dbB, 'fresh', h, clock + INTERVAL, clock)));
    expect(won.filter(Boolean)).toHaveLength(1);
    const row = await dbA.selectFrom('jobLeases').selectAll().where('name', '=', 'fresh').executeTakeFirstOrThrow();
    expect(row.holder).toBe(holders[won.indexOf(true)]);
  });

  it('keeps the lease of a long run alive, so nobody else starts the job meanwhile', async () => {
    const runs: string[] = [];
    let finish!: () => void;
    const running = new Promise<void>((resolve) => (finish = resolve));
    // A short interval, so the heartbeat (every half interval) comes quickly in real time.
    const job = (holder: string): Job => ({ ...countingJob('long', runs, holder, () => running), intervalMs: 200 });
    const a = createJobRunner({ db: dbA, holder: 'long-a', now, jobs: [job('a')] });
    const b = createJobRunner({ db: dbB, holder: 'long-b', now, jobs: [job('b')] });

    const first = a.tick();
    await vi.waitFor(() => expect(runs).toEqual(['a']));
    const claimed = await dbB.selectFrom('jobLeases').select('expiresAt').where('name', '=', 'long').executeTakeFirstOrThrow();
    // Time passes beyond the claimed lease; the heartbeat moves the lease on.
    clock = Number(claimed.expiresAt) + 1;
    await vi.waitFor(async () => {
      const row = await dbB.selectFrom('jobLeases').select('expiresAt').where('name', '=', 'long').executeTakeFirstOrThrow();
      expect(Number(row.expiresAt)).toBe(clock + 200);
    });
    expect(await b.tick()).toEqual([]);
    // The holder itself does not start a second run while the first lasts.
    expect(await a.tick()).toEqual([]);
    finish();
    expect(await first).toEqual(['long']);
    expect(runs).toEqual(['a']);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('stop() aborts a running job and waits for it to end', async () => {
    let sawAbort = false;
    const job: Job = {
      name: 'stoppable',
      intervalMs: INTERVAL,
      run: (signal) =>
        new Promise<void>((resolve) => {
          const end = () => {
            sawAbort = true;
            resolve();
          };
          // stop() may come while the claim is still on its way: the run then starts aborted.
          if (signal.aborted) end();
          else signal.addEventListener('abort', end);
        }),
    };
    const runner = createJobRunner({ db: dbA, holder: 'stopper', now, jobs: [job] });
    const ticking = runner.tick();
    await vi.waitFor(async () => {
      const row = await dbA.selectFrom('jobLeases').select('holder').where('name', '=', 'stoppable').executeTakeFirst();
      expect(row?.holder).toBe('stopper');
    });
    await runner.stop();
    expect(sawAbort).toBe(true);
    expect(await ticking).toEqual(['stoppable']);
    // A stopped runner claims nothing more…
    expect(await runner.tick()).toEqual([]);
    // …and the run it cut short is handed back: another instance takes the job at once.
    const runs: string[] = [];
    const other = createJobRunner({ db: dbB, holder: 'successor', now, jobs: [countingJob('stoppable', runs, 'successor')] });
    expect(await other.tick()).toEqual(['stoppable']);
    await other.stop();
  });

  it('startJobs polls on its own timer until stopped', async () => {
    const runs: string[] = [];
    let runner: JobRunner | undefined;
    try {
      runner = startJobs({ db: dbA, holder: 'timed', now, pollMs: 10, firstPollMs: 0, jobs: [countingJob('timed', runs, 'timed')] });
      await vi.waitFor(() => expect(runs).toEqual(['timed']));
      clock += INTERVAL;
      await vi.waitFor(() => expect(runs).toEqual(['timed', 'timed']));
    } finally {
      await runner?.stop();
    }
    // Stopped: the job is due again, but this runner no longer claims it.
    clock += 10 * INTERVAL;
    expect(await runner.tick()).toEqual([]);
    const row = await dbA.selectFrom('jobLeases').select(['holder', 'expiresAt']).where('name', '=', 'timed').executeTakeFirstOrThrow();
    expect(Number(row.expiresAt)).toBeLessThanOrEqual(clock);
    expect(runs).toEqual(['timed', 'timed']);
  });

  it('refuses malformed jobs', () => {
    expect(() => createJobRunner({ db: dbA, jobs: [countingJob('x', [], 'x'), countingJob('x', [], 'x')] })).toThrow('unique');
    expect(() => createJobRunner({ db: dbA, jobs: [{ ...countingJob('y', [], 'y'), intervalMs: 0 }] })).toThrow('positive');
    expect(() => createJobRunner({ db: dbA, jobs: [countingJob('z'.repeat(65), [], 'z')] })).toThrow('1–64');
  });
});
