// The load part of the reliability suite (`npm run test:reliability`, docs/reliability.md "Load"): the mixed
// load of bench/load.bench.ts on SQLite and, when reachable, PostgreSQL, asserting what must hold
// whatever the machine's speed: no errors, no timeouts, and the books after (bench/books.ts).
// Prints one line per engine; exits 1 when any of it fails. Speed is the benchmark's business
// (docs/benchmarks.md), not this check's.
//   node --import tsx bench/reliability-load.ts [--short]   (short: 50 connections for 20 s)
import { MIXED } from './mixed-load.ts';
import { oneRun } from './load.bench.ts';
import { PG_ADMIN_URL, postgresTarget, type TargetName } from './targets.ts';

const short = process.argv.includes('--short');
const shape = short ? { connections: 50, seconds: 20 } : { connections: 200, seconds: 60 };
const engines: TargetName[] = ['SQLite'];
const pg = await postgresTarget(PG_ADMIN_URL);
if (pg !== null) {
  await pg.drop();
  engines.push('PostgreSQL');
}
let failed = 0;
for (const engine of engines) {
  const { result, books } = await oneRun(engine, MIXED, 25, shape);
  const problems = [
    ...(result.errors > 0 ? [`${result.errors} errors`] : []),
    ...(result.timeouts > 0 ? [`${result.timeouts} timeouts`] : []),
    ...(books?.broken ?? ['no books read']),
  ];
  if (problems.length > 0) failed++;
  console.log(
    `load ${engine}: ${shape.connections} connections × ${shape.seconds} s, ${result.total} calls (${Math.round(result.rps)} req/s), ` +
      `${result.errors} errors, ${result.timeouts} timeouts; ${books?.acked ?? 0} creates acknowledged, ${books?.inDatabase ?? 0} in the database, ` +
      `${books?.unanswered ?? 0} unanswered; ${books?.usersChecked ?? 0} balances checked: ` +
      (problems.length === 0 ? 'the books hold' : `FAILED: ${problems.join('; ')}`),
  );
}
process.exit(failed > 0 ? 1 : 0);
