#!/usr/bin/env node
// `npm test`: the whole suite, in order — type check, lint, server tests (SQLite always;
// PostgreSQL / MariaDB when TEST_PG_URL / TEST_MYSQL_URL are set), web build, the login and
// public pages' first-load budgets on that build (apps/web/scripts/first-load.mjs), browser tests.
// Ends with one line `N passed, N failed` over every test that ran.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.bench', 'test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const only = process.argv.slice(2); // e.g. `npm test -- server:sqlite e2e`
const steps = [
  { name: 'typecheck', cmd: ['npm', 'run', 'typecheck'] },
  { name: 'lint', cmd: ['npm', 'run', 'lint'] },
  { name: 'server:sqlite', vitest: 'apps/server', env: { TEST_DB: 'sqlite' } },
  process.env.TEST_PG_URL && { name: 'server:postgres', vitest: 'apps/server', env: { TEST_DB: 'pg' } },
  process.env.TEST_MYSQL_URL && { name: 'server:mariadb', vitest: 'apps/server', env: { TEST_DB: 'mysql' } },
  { name: 'web:unit', vitest: 'apps/web' },
  { name: 'system-deps', cmd: ['bash', 'scripts/ensure-system-deps.sh'] },
  { name: 'build', cmd: ['npm', 'run', 'build'] },
  { name: 'first-load:login', cmd: ['node', 'apps/web/scripts/first-load.mjs', '--page', 'login'] },
  { name: 'first-load:public', cmd: ['node', 'apps/web/scripts/first-load.mjs', '--page', 'public'] },
  { name: 'e2e', vitest: 'apps/web', config: 'vitest.e2e.config.ts' },
]
  .filter(Boolean)
  .filter((s) => only.length === 0 || only.includes(s.name) || (s.name === 'system-deps' && only.includes('e2e')));

let passed = 0;
let failed = 0;
const summary = [];
for (const step of steps) {
  const started = Date.now();
  let cmd = step.cmd;
  let cwd = root;
  let report;
  if (step.vitest) {
    cwd = join(root, step.vitest);
    report = join(reports, `${step.name.replace(':', '-')}.json`);
    cmd = [
      'npx',
      'vitest',
      'run',
      ...(step.config ? ['--config', step.config] : []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ];
  }
  console.log(`\n── ${step.name} ──`);
  const res = spawnSync(cmd[0], cmd.slice(1), { cwd, stdio: 'inherit', env: { ...process.env, ...step.env } });
  const ok = res.status === 0;
  let counts = '';
  if (report && existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    counts = ` (${r.numPassedTests} passed, ${r.numFailedTests} failed)`;
    if (r.numTotalTests === 0) {
      console.error(`${step.name}: no test ran`);
      summary.push(`${step.name}: FAILED, no test ran`);
      failed += 1;
      continue;
    }
  } else if (report) {
    failed += 1;
  }
  summary.push(`${step.name}: ${ok ? 'ok' : 'FAILED'}${counts} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (!ok && !report) failed += 1;
  if (!ok && !process.env.TEST_KEEP_GOING) break;
}
console.log('\n── summary ──');
for (const line of summary) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && summary.every((l) => !l.includes('FAILED')) ? 0 : 1);
