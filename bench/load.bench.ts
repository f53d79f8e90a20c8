// Mixed load on SQLite (issue 24 §6, decision 0099): 200 autocannon connections for 60 s, 70 %
// order-list pages with filters, 20 % order details, 10 % orders created by the demo inspectors
// for random shops (bench/mixed-load.ts), counting the calls the client gave up on after 10 s.
// Baseline: a read-only run of the same shape (the list and detail calls alone) in the same
// round. Three rounds, each run on a fresh server: the built bundle with the demo business on a
// new SQLite database. bench/server-probe.mjs in the server reports its event-loop delay and when
// it accepted each connection, so the table shows how long a connection waited to be accepted.
import { readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, pct, ratio, repoRoot, startApp, superAdminBearer, type Section } from './lib.ts';
import { acceptWaits, fixtures, MIXED, mixedLoad, READ_ONLY, type Mix, type MixedResult, type Probe } from './mixed-load.ts';

const CONNECTIONS = 200;
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 3);

interface Run {
  result: MixedResult;
  probe: Probe;
  /** ms each connection waited to be accepted, ascending. */
  waits: number[];
}

let runs = 0;

async function oneRun(mix: Mix, seed: number): Promise<Run> {
  const probeFile = join(tmpdir(), `clearplay-load-probe-${process.pid}-${runs++}.json`);
  const nodeOptions = [process.env.NODE_OPTIONS, `--import ${join(repoRoot, 'bench', 'server-probe.mjs')}`].filter(Boolean).join(' ');
  const app = await startApp({ NODE_OPTIONS: nodeOptions, PROBE_OUT: probeFile }, { built: true });
  let result;
  try {
    const fx = await fixtures(app, await superAdminBearer(app));
    result = await mixedLoad(app, fx, { connections: CONNECTIONS, seconds: SECONDS, mix, seed });
  } finally {
    await app.stop();
  }
  const probe = JSON.parse(readFileSync(probeFile, 'utf8')) as Probe;
  rmSync(probeFile, { force: true });
  const end = Math.max(...probe.accepted.map(([, at]) => at), performance.timeOrigin + performance.now());
  const { sockets, ...rest } = result;
  return { result: rest, probe, waits: acceptWaits(sockets, probe, end) };
}

export async function run(): Promise<Section[]> {
  const rounds: { readOnly: Run; mixed: Run }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const readOnly = await oneRun(READ_ONLY, round);
    const mixed = await oneRun(MIXED, round);
    for (const [name, r] of [
      ['read-only', readOnly],
      ['mixed', mixed],
    ] as const) {
      const { timeoutTimes, ...figures } = r.result;
      console.log(
        `round ${round} ${name}:`,
        JSON.stringify({ ...figures, firstTimeouts: timeoutTimes, longestAcceptWait: r.waits.at(-1) }),
      );
    }
    rounds.push({ readOnly, mixed });
  }
  const row = (round: number, name: string, r: Run, base: Run) =>
    `| ${round} | ${name} | ${fmt(r.result.rps)} | ${fmt(r.result.p50)} | ${fmt(r.result.p99)} | ${r.result.errors} | **${r.result.timeouts}** | ` +
    `${fmt(pct(r.waits, 50))} / ${fmt(r.waits.at(-1) ?? 0)} | ${fmt(r.probe.loopDelayP99)} | ` +
    `${ratio(r.result.rps, base.result.rps)} | ${ratio(r.result.p50, base.result.p50)} | ${ratio(r.result.p99, base.result.p99)} |`;
  const creates = rounds.map((r) => `${r.mixed.result.answered.create} (${r.mixed.result.failed.create} not 200)`).join(', ');
  const body = `
${CONNECTIONS} autocannon connections for ${SECONDS} s per run, each sending its next call when the last is answered (10 s
client timeout, autocannon's default; all connections opened at once at the start). Mixed: 70 % order-list pages
(20 rows, one of seven filter sets: none, result, game, shop, a date range, inspector with sorting, public cheating
records; pages 1–3) and 20 % order details as the super admin, 10 % orders created by the three demo inspectors for
random shops at the shop's price. Baseline: the read-only run of the same shape (the list and detail calls alone, in
the same 78 : 22 proportion) in the same round. Each run on a fresh server: the built bundle, the demo business on a
new SQLite database. "Accept wait": how long the connections waited between their TCP handshake and the server
accepting them (p50 / longest, ms; server-probe.mjs; at least that: the client notes a handshake when its own event loop
gets to it, 0 when the server accepted first). Loop delay: the server's event-loop delay p99 (ms). Orders
created per mixed run: ${creates}.

| round | run | req/s | p50 ms | p99 ms | errors | timeouts | accept wait p50 / max ms | loop delay p99 ms | req/s ÷ read-only | p50 ÷ read-only | p99 ÷ read-only |
| --: | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |
${rounds.flatMap((r, i) => [row(i + 1, 'read-only', r.readOnly, r.readOnly), row(i + 1, 'mixed', r.mixed, r.readOnly)]).join('\n')}

Timeouts in the three mixed runs: ${rounds.map((r) => r.mixed.result.timeouts).join(', ')}; in the read-only runs:
${rounds.map((r) => r.readOnly.result.timeouts).join(', ')}. Load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')} (on ${cpus().length} cores). Before decision 0099 (requests started in slices of the event loop) the same
load timed out calls on the connections the server had not yet accepted (15-second runs during the investigation: 61,
0 and 89 timeouts, each on a connection accepted only after the client gave up): Node ≥ 20 accepts one connection per
turn of its event loop, and a turn served every busy connection.
`;
  return [{ title: 'Mixed load on SQLite (200 connections, client timeouts)', body }];
}
