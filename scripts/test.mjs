#!/usr/bin/env node
// `npm test`: the whole suite — type check and lint, server tests (SQLite always; PostgreSQL /
// MariaDB when TEST_PG_URL / TEST_MYSQL_URL are set), web unit tests, web build, the login and
// public pages' first-load budgets on that build (apps/web/scripts/first-load.mjs), browser
// tests. Ends with each step's time and one line `N passed, N failed` over every test that ran.
//
// The steps of a group run two at a time (decisions 0086, 0124): vitest runs one worker on a
// 2-core machine, the type check runs on one thread and ESLint on one (decision 0125), and the
// database suites spend much of their time waiting on PostgreSQL and MariaDB, so a second step
// fills the second core; the next step starts as soon as one ends. A group's output is printed line by line with
// the step's name in front. The first-load budgets run alone: they time what they measure. The
// browser journeys run alone too, on @playwright/test's own workers (apps/web/playwright.config.ts,
// decision 0095). With TEST_PG_URL, the two-instance journeys follow: two server processes on a
// fresh PostgreSQL database behind nginx (apps/web/playwright.cluster.config.ts, decision 0103).
//
// Two steps run on Node 24, the current LTS line, instead of the machine's Node 20 (decision
// 0114): the server suite on SQLite (its driver is the one that differs between the two) and the
// two-instance journeys. The rest runs on Node 20, the browser journeys on SQLite included, so
// each of the embedded database's two drivers has a whole suite. scripts/node24.mjs fetches
// Node 24 from the npm registry once.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureNode24, NODE24_VERSION } from './node24.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.bench', 'test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const only = process.argv.slice(2); // e.g. `npm test -- server:sqlite e2e`
const groups = [
  // Two at a time, the next one starting as soon as one ends (decision 0124), longest first
  // after the two quick checks that fail fastest.
  [
    { name: 'lint', cmd: ['npm', 'run', 'lint'] },
    { name: 'typecheck', cmd: ['npm', 'run', 'typecheck'] },
    process.env.TEST_PG_URL && { name: 'server:postgres', vitest: 'apps/server', env: { TEST_DB: 'pg' } },
    { name: 'server:sqlite', vitest: 'apps/server', env: { TEST_DB: 'sqlite' }, coverage: true, node24: true },
    process.env.TEST_MYSQL_URL && { name: 'server:mariadb', vitest: 'apps/server', env: { TEST_DB: 'mysql' } },
    { name: 'web:unit', vitest: 'apps/web', coverage: true },
  ],
  [{ name: 'system-deps', cmd: ['bash', 'scripts/ensure-system-deps.sh'] }],
  [{ name: 'build', cmd: ['npm', 'run', 'build'] }],
  [{ name: 'first-load:login', cmd: ['node', 'apps/web/scripts/first-load.mjs', '--page', 'login'] }],
  [{ name: 'first-load:public', cmd: ['node', 'apps/web/scripts/first-load.mjs', '--page', 'public'] }],
  [{ name: 'e2e', playwright: 'apps/web' }],
  [process.env.TEST_PG_URL && { name: 'e2e:cluster', playwright: 'apps/web', config: 'playwright.cluster.config.ts', node24: true }],
]
  .map((group) =>
    group
      .filter(Boolean)
      .filter(
        (s) =>
          only.length === 0 ||
          only.includes(s.name) ||
          (s.name === 'system-deps' && (only.includes('e2e') || only.includes('e2e:cluster'))),
      ),
  )
  .filter((group) => group.length > 0);

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/**
 * The machine's CPU time so far (Linux's /proc/stat: every core's busy and idle ticks), to say
 * how busy each step kept the cores: a step that leaves them idle can share its time with another.
 */
function cpuTicks() {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
    const ticks = fields.map(Number);
    const idle = ticks[3] + (ticks[4] ?? 0); // idle + iowait
    return { total: ticks.reduce((a, b) => a + b, 0), idle };
  } catch {
    return undefined;
  }
}
const busy = (from, to) =>
  from && to && to.total > from.total
    ? `, CPU ${Math.round((100 * (to.total - from.total - (to.idle - from.idle))) / (to.total - from.total))} % busy`
    : '';

/** A browser step's slowest journey files (their tests' time summed) from @playwright/test's JSON report. */
function slowestFiles(report, count = 6) {
  const perFile = new Map();
  const walk = (suite, file) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) for (const r of t.results ?? []) perFile.set(here, (perFile.get(here) ?? 0) + (r.duration ?? 0));
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  return [...perFile]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([file, ms]) => `${file} ${seconds(ms)}`)
    .join(', ');
}

/**
 * Line coverage of the source a step's tests run (V8's own counters, no instrumentation): the
 * server on SQLite, the web's unit and component tests. Measured, not enforced: no target, the
 * figure goes in the summary (and the README) so its trend shows.
 */
const coverageDir = (step) => join(reports, `coverage-${step.name.replace(':', '-')}`);
const coverageArgs = (step) => [
  '--coverage.enabled=true',
  '--coverage.provider=v8',
  '--coverage.include=src/**/*.{ts,tsx}',
  '--coverage.reporter=json-summary',
  `--coverage.reportsDirectory=${coverageDir(step)}`,
];
function coverageOf(step) {
  const file = join(coverageDir(step), 'coverage-summary.json');
  if (!step.coverage || !existsSync(file)) return '';
  const { lines, branches } = JSON.parse(readFileSync(file, 'utf8')).total;
  return `, coverage ${lines.pct}% of lines, ${branches.pct}% of branches`;
}

/**
 * A report's counts: Vitest's JSON report has them; @playwright/test's has `stats`. There a test
 * that did not run (skipped after a failed hook) counts as failed, and so would a flaky one
 * (retries are off).
 */
function counted(r) {
  if (!r.stats) return r;
  const failed = r.stats.unexpected + r.stats.flaky + r.stats.skipped;
  return { numPassedTests: r.stats.expected, numFailedTests: failed, numTotalTests: r.stats.expected + failed };
}

/** Runs one step; resolves with its summary line and its test counts. */
function run(step, alone) {
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
      ...(step.coverage ? coverageArgs(step) : []),
    ];
  } else if (step.playwright) {
    cwd = join(root, step.playwright);
    report = join(reports, `${step.name.replace(':', '-')}.json`);
    cmd = ['npx', 'playwright', 'test', ...(step.config ? ['--config', step.config] : [])];
    step.env = { ...step.env, E2E_REPORT: report };
  }
  const name = step.node24 ? `${step.name} (Node ${NODE24_VERSION})` : step.name;
  console.log(`\n── ${name} ──`);
  const env = { ...process.env, ...step.env };
  if (step.node24) {
    try {
      env.PATH = `${ensureNode24()}:${env.PATH}`;
    } catch (error) {
      console.error(`${step.name}: Node ${NODE24_VERSION} could not be set up: ${error.message}`);
      return Promise.resolve({ passed: 0, failed: 1, line: `${name}: FAILED, Node ${NODE24_VERSION} could not be set up` });
    }
  }
  const ticks = cpuTicks();
  const child = spawn(cmd[0], cmd.slice(1), {
    cwd,
    stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env,
  });
  if (!alone) {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
    }
  }
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const ok = code === 0;
      const result = { passed: 0, failed: 0, line: '' };
      let counts = '';
      if (report && existsSync(report)) {
        const raw = JSON.parse(readFileSync(report, 'utf8'));
        const r = counted(raw);
        if (raw.stats) result.slowest = slowestFiles(raw);
        result.passed = r.numPassedTests;
        result.failed = r.numFailedTests;
        counts = ` (${r.numPassedTests} passed, ${r.numFailedTests} failed${coverageOf(step)})`;
        if (r.numTotalTests === 0) {
          console.error(`${name}: no test ran`);
          result.line = `${name}: FAILED, no test ran`;
          result.failed += 1;
          return resolve(result);
        }
      } else if (report || !ok) {
        result.failed += 1;
      }
      result.line = `${name}: ${ok ? 'ok' : 'FAILED'}${counts} in ${seconds(Date.now() - started)}${alone ? busy(ticks, cpuTicks()) : ''}`;
      if (result.slowest) result.line += `\n  slowest files: ${result.slowest}`;
      resolve(result);
    });
  });
}

/**
 * Runs a group's steps two at a time, in order: a step starts as soon as one of the two running
 * ends, so no core waits for the slower of a fixed pair. After a failure nothing new starts
 * (unless TEST_KEEP_GOING); the running step finishes. Results come back in the group's order.
 */
async function inPairs(group) {
  const results = [];
  let next = 0;
  let stop = false;
  const lane = async () => {
    while (next < group.length && !stop) {
      const index = next++;
      results[index] = await run(group[index], group.length === 1);
      if (results[index].line.includes('FAILED') && !process.env.TEST_KEEP_GOING) stop = true;
    }
  };
  await Promise.all([lane(), lane()]);
  return results.filter(Boolean);
}

const began = Date.now();
let passed = 0;
let failed = 0;
const summary = [];
for (const group of groups) {
  const started = Date.now();
  const ticks = cpuTicks();
  const results = await inPairs(group);
  for (const r of results) {
    passed += r.passed;
    failed += r.failed;
    summary.push(r.line);
  }
  if (group.length > 1) summary.push(`  (side by side: ${seconds(Date.now() - started)}${busy(ticks, cpuTicks())})`);
  if (results.some((r) => r.line.includes('FAILED')) && !process.env.TEST_KEEP_GOING) break;
}
console.log('\n── summary ──');
for (const line of summary) console.log(line);
console.log(`total: ${seconds(Date.now() - began)}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && summary.every((l) => !l.includes('FAILED')) ? 0 : 1);
