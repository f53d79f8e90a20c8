// Mixed load on SQLite and PostgreSQL (decision 0099; docs/reliability.md "Load"): 200
// autocannon connections for 60 s, 70 % order-list pages with filters, 20 % order details, 10 %
// orders created by the demo inspectors for random shops (bench/mixed-load.ts), counting the
// calls the client gave up on after 10 s. Baseline: a read-only run of the same shape (the list
// and detail calls alone) in the same round on the same database engine. Each run on a fresh
// server: the built bundle with the demo business on a new SQLite database, or a throwaway
// PostgreSQL one (BENCH_PG_URL). After each mixed run the books are read straight from the
// database (bench/books.ts): every acknowledged create there, no code twice, balances equal to
// their ledgers, the workplace and the counters equal to a recount. A broken book fails the bench.
// bench/server-probe.mjs in the server reports its event-loop delay and when it accepted each
// connection, so the table shows how long a connection waited to be accepted.
import { readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import { checkBooks, type Books } from './books.ts';
import { fmt, pct, ratio, repoRoot, startApp, superAdminBearer, type Section } from './lib.ts';
import { acceptWaits, fixtures, MIXED, mixedLoad, READ_ONLY, type Mix, type MixedResult, type Probe } from './mixed-load.ts';
import { PG_ADMIN_URL, postgresTarget, sqliteTarget, type Target, type TargetName } from './targets.ts';

const CONNECTIONS = 200;
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 2);

export interface Run {
  result: MixedResult;
  probe: Probe;
  /** ms each connection waited to be accepted, ascending. */
  waits: number[];
  /** After a mixed run: the books. */
  books?: Books;
}

let runs = 0;

/** Waits until the run's orders stop growing: the server finishes the creates it was still given when the client stopped. */
async function settled(target: Target): Promise<void> {
  let last = -1;
  for (let i = 0; i < 60; i++) {
    const [row] = (await target.raw.run(CompiledQuery.raw('select count(*) as n from orders'))) as { n: unknown }[];
    const n = Number(row?.n ?? 0);
    if (n === last) return;
    last = n;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export async function oneRun(
  engine: TargetName,
  mix: Mix,
  seed: number,
  shape: { connections: number; seconds: number } = { connections: CONNECTIONS, seconds: SECONDS },
): Promise<Run> {
  const target = engine === 'SQLite' ? await sqliteTarget('load') : await postgresTarget(PG_ADMIN_URL);
  if (target === null) throw new Error('PostgreSQL went away');
  const probeFile = join(tmpdir(), `clearplay-load-probe-${process.pid}-${runs++}.json`);
  const nodeOptions = [process.env.NODE_OPTIONS, `--import ${join(repoRoot, 'bench', 'server-probe.mjs')}`].filter(Boolean).join(' ');
  const app = await startApp({ ...target.env, NODE_OPTIONS: nodeOptions, PROBE_OUT: probeFile }, { built: true });
  let result;
  let books: Books | undefined;
  try {
    const admin = await superAdminBearer(app);
    const fx = await fixtures(app, admin);
    result = await mixedLoad(app, fx, { ...shape, mix, seed });
    if (mix.create > 0) {
      await settled(target);
      books = await checkBooks(target, app, admin, result);
    }
  } finally {
    await app.stop();
    await target.raw.close();
    await target.drop();
  }
  const probe = JSON.parse(readFileSync(probeFile, 'utf8')) as Probe;
  rmSync(probeFile, { force: true });
  const end = Math.max(...probe.accepted.map(([, at]) => at), performance.timeOrigin + performance.now());
  const { sockets, ...rest } = result;
  return { result: rest, probe, waits: acceptWaits(sockets, probe, end), ...(books ? { books } : {}) };
}

export async function run(): Promise<Section[]> {
  const engines: TargetName[] = ['SQLite'];
  const probe = await postgresTarget(PG_ADMIN_URL);
  if (probe !== null) {
    await probe.drop();
    engines.push('PostgreSQL');
  }
  const rounds: { engine: TargetName; round: number; readOnly: Run; mixed: Run }[] = [];
  for (const engine of engines) {
    for (let round = 1; round <= ROUNDS; round++) {
      const readOnly = await oneRun(engine, READ_ONLY, round);
      const mixed = await oneRun(engine, MIXED, round);
      for (const [name, r] of [
        ['read-only', readOnly],
        ['mixed', mixed],
      ] as const) {
        const { timeoutTimes, creates, ...figures } = r.result;
        console.log(
          `${engine} round ${round} ${name}:`,
          JSON.stringify({
            ...figures,
            createsSent: creates.sent.length,
            firstTimeouts: timeoutTimes,
            longestAcceptWait: r.waits.at(-1),
            books: r.books,
          }),
        );
      }
      rounds.push({ engine, round, readOnly, mixed });
    }
  }
  const row = (engine: string, round: number, name: string, r: Run, base: Run) =>
    `| ${engine} | ${round} | ${name} | ${fmt(r.result.rps)} | ${fmt(r.result.p50)} | ${fmt(r.result.p99)} | ${r.result.errors} | **${r.result.timeouts}** | ` +
    `${fmt(pct(r.waits, 50))} / ${fmt(r.waits.at(-1) ?? 0)} | ${fmt(r.probe.loopDelayP99)} | ` +
    `${ratio(r.result.rps, base.result.rps)} | ${ratio(r.result.p50, base.result.p50)} | ${ratio(r.result.p99, base.result.p99)} |`;
  const booksRow = ({ engine, round, mixed }: (typeof rounds)[number]) => {
    const b = mixed.books!;
    return (
      `| ${engine} | ${round} | ${b.acked} | ${b.refused} | ${b.unanswered} | ${b.inDatabase} | ${b.inDatabase - b.acked} | ` +
      `${fmt(b.ordersTotal)} | ${b.usersChecked} | ${b.broken.length === 0 ? 'yes' : `**no**: ${b.broken.join('; ')}`} |`
    );
  };
  const broken = rounds.filter((r) => (r.mixed.books?.broken.length ?? 0) > 0);
  const ratios = (engine: TargetName) =>
    rounds
      .filter((r) => r.engine === engine)
      .map((r) => ratio(r.mixed.result.rps, r.readOnly.result.rps))
      .join(', ');
  const body = `
${CONNECTIONS} autocannon connections for ${SECONDS} s per run, each sending its next call when the last is answered (10 s
client timeout, autocannon's default; all connections opened at once at the start). Mixed: 70 % order-list pages
(20 rows, one of seven filter sets: none, result, game, shop, a date range, inspector with sorting, public cheating
records; pages 1–3) and 20 % order details as the super admin, 10 % orders created by the three demo inspectors for
random shops at the shop's price. Baseline: the read-only run of the same shape (the list and detail calls alone, in
the same 78 : 22 proportion) in the same round on the same engine. Each run on a fresh server: the built bundle, the
demo business on a new SQLite database or a throwaway PostgreSQL one. Errors: connection errors and every answer other
than a 200 envelope. "Accept wait": how long the connections waited between their TCP handshake and the server
accepting them (p50 / longest, ms; server-probe.mjs; at least that: the client notes a handshake when its own event loop
gets to it, 0 when the server accepted first). Loop delay: the server's event-loop delay p99 (ms).

Target: 0 errors; mixed ≥ 0.5× read-only in req/s on both engines. Mixed ÷ read-only req/s per round:
SQLite ${ratios('SQLite')}${engines.includes('PostgreSQL') ? `; PostgreSQL ${ratios('PostgreSQL')}` : ' (PostgreSQL not reachable: not measured)'}.

| engine | round | run | req/s | p50 ms | p99 ms | errors | timeouts | accept wait p50 / max ms | loop delay p99 ms | req/s ÷ read-only | p50 ÷ read-only | p99 ÷ read-only |
| --- | --: | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |
${rounds.flatMap((r) => [row(r.engine, r.round, 'read-only', r.readOnly, r.readOnly), row(r.engine, r.round, 'mixed', r.mixed, r.readOnly)]).join('\n')}

**The books after each mixed run** (bench/books.ts, read straight from the database once the server had finished
what it was given): acknowledged creates (200 with an id), refused, sent without an answer (timed out, or in flight
when the run ended), the run's orders in the database, and those minus the acknowledged (must equal the unanswered);
all orders; users whose balance was checked against the sum of their ledger and their last entry. "Hold" means: every
acknowledged create present under its id and code, none written twice, no verification code twice, every balance
equal to its ledger, the workplace's total, per-result figures and balance equal to a recount, and the four order
counters (order_daily, order_hourly, order_game_daily, order_user_daily) equal to a recount of the orders.

| engine | round | acknowledged | refused | no answer | run's orders in DB | in DB − acknowledged | all orders | users | books hold |
| --- | --: | --: | --: | --: | --: | --: | --: | --: | --- |
${rounds.map(booksRow).join('\n')}

Load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')} (on ${cpus().length} cores). Before decision 0099 (requests started in slices of the event loop) the same
load on SQLite timed out calls on the connections the server had not yet accepted (15-second runs during the
investigation: 61, 0 and 89 timeouts, each on a connection accepted only after the client gave up): Node ≥ 20 accepts
one connection per turn of its event loop, and a turn served every busy connection.
`;
  if (broken.length > 0) {
    console.error(body);
    throw new Error(
      `the books do not hold after ${broken.length} mixed runs: ${broken.map((r) => r.mixed.books!.broken.join('; ')).join(' | ')}`,
    );
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const summary = engines.map((engine) => {
    const own = rounds.filter((r) => r.engine === engine);
    const r = own.map((x) => x.mixed.result.rps / x.readOnly.result.rps);
    const errors = own.reduce((n, x) => n + x.mixed.result.errors + x.mixed.result.timeouts, 0);
    return {
      target: `${engine}: 0 errors; mixed ≥ 0.5× read-only req/s; the books hold`,
      figure:
        `mixed ÷ read-only req/s ${own.map((x) => ratio(x.mixed.result.rps, x.readOnly.result.rps)).join(', ')} ` +
        `(${own.map((x) => `${fmt(x.mixed.result.rps)} vs ${fmt(x.readOnly.result.rps)}/s`).join('; ')}); ` +
        `errors and timeouts ${errors}; books ${own.every((x) => x.mixed.books?.broken.length === 0) ? 'hold' : 'broken'}`,
      met: errors === 0 && median(r) >= 0.5 && own.every((x) => x.mixed.books?.broken.length === 0),
    };
  });
  return [
    {
      title: 'Mixed load on SQLite and PostgreSQL (200 connections: timeouts, and the books after)',
      body,
      summary,
      replaces: 'Mixed load on SQLite (200 connections, client timeouts)',
    },
  ];
}
