#!/usr/bin/env node
// `npm run test:reliability [-- --short] [-- part ...]`: the reliability suite
// (docs/reliability.md, decision 0100): the authorization matrix and the bad-input fuzzing (apps/server/src/
// reliability) in their full form on SQLite, PostgreSQL and MariaDB; the mixed load with its books
// on SQLite and PostgreSQL (bench/reliability-load.ts). PostgreSQL and MariaDB are the machine's
// (127.0.0.1, as .ci/run has them; TEST_PG_URL / TEST_MYSQL_URL name others): each run makes a
// throwaway database there and drops it after; an engine that is not reachable is skipped, and
// the summary says so. `--short` runs the short forms `npm test` runs in CI. Parts: matrix-fuzz
// (the whole folder: matrix, fuzzing, faults), cluster (two instances behind nginx, decision
// 0103), load. Ends with one line per part and exits 1 when any failed.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const short = args.includes('--short');
const only = args.filter((a) => !a.startsWith('--'));
const wanted = (part) => only.length === 0 || only.includes(part);

const run = (name, cmd, cmdArgs, env = {}, cwd = root) =>
  new Promise((resolve) => {
    const started = Date.now();
    console.log(`── ${name}: ${cmd} ${cmdArgs.join(' ')}`);
    const child = spawn(cmd, cmdArgs, { cwd, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('exit', (code) => resolve({ name, ok: code === 0, seconds: Math.round((Date.now() - started) / 1000) }));
  });

const quiet = (cmd, cmdArgs) => spawnSync(cmd, cmdArgs, { encoding: 'utf8' }).status === 0;
const suffix = `${Date.now()}_${process.pid}`;

/** A throwaway database on the machine's PostgreSQL / MariaDB, or null when it is not reachable. */
function throwaway(engine) {
  const name = `clearplay_rel_${suffix}`;
  if (engine === 'pg') {
    if (process.env.TEST_PG_URL) return { url: process.env.TEST_PG_URL, drop: () => {} };
    if (!quiet('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-qc', `CREATE DATABASE ${name}`])) return null;
    return {
      url: `postgres://postgres@127.0.0.1:5432/${name}`,
      drop: () =>
        quiet('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]),
    };
  }
  if (process.env.TEST_MYSQL_URL) return { url: process.env.TEST_MYSQL_URL, drop: () => {} };
  if (!quiet('mariadb', ['-h', '127.0.0.1', '-uroot', '-e', `CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`]))
    return null;
  return {
    url: `mysql://root@127.0.0.1:3306/${name}`,
    drop: () => quiet('mariadb', ['-h', '127.0.0.1', '-uroot', '-e', `DROP DATABASE IF EXISTS ${name}`]),
  };
}

const results = [];
const skipped = [];
const form = short ? {} : { RELIABILITY: 'full' };
const server = join(root, 'apps', 'server');
const vitest = ['vitest', 'run', 'src/reliability'];

if (wanted('matrix-fuzz')) {
  results.push(await run('matrix-fuzz:sqlite', 'npx', vitest, { ...form, TEST_DB: 'sqlite' }, server));
  for (const [engine, kind, urlVar] of [
    ['pg', 'pg', 'TEST_PG_URL'],
    ['mysql', 'mysql', 'TEST_MYSQL_URL'],
  ]) {
    const db = throwaway(engine);
    if (db === null) {
      skipped.push(`matrix-fuzz:${kind} (the database server is not reachable)`);
      continue;
    }
    try {
      results.push(await run(`matrix-fuzz:${kind}`, 'npx', vitest, { ...form, TEST_DB: kind, [urlVar]: db.url }, server));
    } finally {
      db.drop();
    }
  }
}

if (wanted('cluster')) {
  // Two instances behind nginx on PostgreSQL (decision 0103): the stack makes its own database on
  // the server TEST_PG_URL names (the machine's by default) and drops it after.
  const pg = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!quiet('psql', [pg, '-qc', 'select 1'])) skipped.push('cluster (PostgreSQL is not reachable)');
  else {
    const built = await run('build', 'npm', ['run', 'build']);
    results.push(
      built.ok
        ? await run(
            'cluster',
            'npx',
            ['playwright', 'test', '-c', 'playwright.cluster.config.ts'],
            { TEST_PG_URL: pg },
            join(root, 'apps', 'web'),
          )
        : built,
    );
  }
}

if (wanted('load')) {
  results.push(await run('load', process.execPath, ['--import', 'tsx', 'bench/reliability-load.ts', ...(short ? ['--short'] : [])]));
}

console.log('\n── reliability summary');
for (const r of results) console.log(`${r.ok ? 'passed' : 'FAILED'}  ${r.name} (${r.seconds} s)`);
for (const s of skipped) console.log(`skipped ${s}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
