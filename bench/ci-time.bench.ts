// CI's time on a clean clone (issue #26 §4; decisions 0086, 0119, 0122–0124): `.ci/run` of the
// committed HEAD beside `.ci/run` of the baseline commit, the one on which the issue measured
// 2,321 s, on the same machine in the same hour. Each run gets a fresh clone with `../shared`
// beside it, as CI does, installs its own packages and runs its own `npm test` against the
// machine's PostgreSQL and MariaDB. Counted: the whole run's wall time, the machine's busy CPU
// time (/proc/stat), each step's time from the summary `npm test` prints, and the tests that
// passed. About 40 minutes a round on a 2-core machine (BENCH_CI_ROUNDS, default 1; rounds
// alternate which commit goes first). BENCH_CI_BASELINE names another baseline commit.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { busyCpuSeconds, fmt, median, ratio, repoRoot, type Section } from './lib.ts';

const BASELINE = process.env.BENCH_CI_BASELINE ?? '1a50357';
const ROUNDS = Number(process.env.BENCH_CI_ROUNDS ?? 1);
const LOGS = join(repoRoot, '.bench', 'ci-time');

interface CiRun {
  ok: boolean;
  /** Seconds of the whole `.ci/run`, and of its `npm test`. */
  total: number;
  npmTest: number;
  /** Busy CPU seconds of the whole machine over the run. */
  cpu: number;
  passed: number;
  failed: number;
  /** Each step's seconds, in the order `npm test` printed them. */
  steps: Map<string, number>;
}

const git = (args: string[], cwd = repoRoot) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

/** What `.ci/run` printed, read back: `npm test`'s summary lines and the `[ci Ns]` marks. */
export function readCiLog(log: string): Omit<CiRun, 'total' | 'cpu'> {
  const lines = log.split('\n');
  const mark = (what: string) => {
    const line = lines.find((l) => new RegExp(`^\\[ci +\\d+s\\] ${what}$`).test(l));
    return line === undefined ? undefined : Number(/\d+/.exec(line)![0]);
  };
  const from = mark('npm test');
  const to = mark('done');
  const summary = lines.slice(lines.lastIndexOf('── summary ──') + 1);
  const steps = new Map<string, number>();
  for (const line of summary) {
    const step = /^([\w:-]+)(?: \(Node [^)]*\))?: (?:ok|FAILED)\b.* in (\d+) s\b/.exec(line);
    if (step) steps.set(step[1]!, Number(step[2]));
  }
  const counts = summary.map((l) => /^(\d+) passed, (\d+) failed$/.exec(l)).find(Boolean);
  const passed = counts ? Number(counts[1]) : 0;
  const failed = counts ? Number(counts[2]) : 0;
  return {
    ok: from !== undefined && to !== undefined && counts !== undefined && failed === 0,
    npmTest: from !== undefined && to !== undefined ? to - from : NaN,
    passed,
    failed,
    steps,
  };
}

/** One `.ci/run` of `commit` on a fresh clone; its output goes to .bench/ci-time/<label>.log. */
async function ciRun(commit: string, label: string): Promise<CiRun> {
  const dir = mkdtempSync(join(tmpdir(), 'clearplay-ci-'));
  const checkout = join(dir, 'main');
  try {
    git(['clone', '--quiet', repoRoot, checkout]);
    git(['checkout', '--quiet', commit], checkout);
    symlinkSync(join(repoRoot, '..', 'shared'), join(dir, 'shared'));
    mkdirSync(LOGS, { recursive: true });
    const logFile = join(LOGS, `${label}.log`);
    const out = createWriteStream(logFile);
    const env: NodeJS.ProcessEnv = { ...process.env, TEST_KEEP_GOING: '1' };
    // The run decides these for itself, as on CI.
    for (const name of ['SCREENSHOTS', 'TEST_PG_URL', 'TEST_MYSQL_URL', 'NODE_OPTIONS', 'BENCH_SKIP_BUILD']) delete env[name];
    const startCpu = busyCpuSeconds();
    const started = Date.now();
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('bash', ['.ci/run'], { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.pipe(out, { end: false });
      child.stderr.pipe(out, { end: false });
      child.on('error', reject);
      child.on('close', resolve);
    });
    const total = (Date.now() - started) / 1000;
    const cpu = busyCpuSeconds() - startCpu;
    await new Promise((resolve) => out.end(resolve));
    const read = readCiLog(readFileSync(logFile, 'utf8'));
    console.log(`  ${label}: exit ${code}, ${fmt(total)} s, ${read.passed} passed, ${read.failed} failed (log: ${logFile})`);
    return { ...read, ok: read.ok && code === 0, total, cpu };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Section[]> {
  if (!existsSync(join(repoRoot, '..', 'shared'))) throw new Error('ci-time needs ../shared beside the checkout, as CI has it');
  const head = git(['rev-parse', '--short', 'HEAD']);
  const baseline = git(['rev-parse', '--short', BASELINE]);
  const runs: { baseline: CiRun[]; head: CiRun[] } = { baseline: [], head: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['baseline', 'head'] as const) : (['head', 'baseline'] as const);
    for (const which of order) {
      const commit = which === 'baseline' ? baseline : head;
      console.log(`  round ${round + 1}/${ROUNDS}: .ci/run of ${which} (${commit})`);
      runs[which].push(await ciRun(commit, `${which}-${commit}-round${round + 1}`));
    }
  }
  const allOk = [...runs.baseline, ...runs.head].every((r) => r.ok);
  const m = (which: 'baseline' | 'head', pick: (r: CiRun) => number) => median(runs[which].map(pick));
  const total = { baseline: m('baseline', (r) => r.total), head: m('head', (r) => r.total) };
  const tests = { baseline: m('baseline', (r) => r.passed), head: m('head', (r) => r.passed) };
  const perTest = { baseline: total.baseline / tests.baseline, head: total.head / tests.head };

  const stepNames = [...new Set([...runs.baseline, ...runs.head].flatMap((r) => [...r.steps.keys()]))];
  const stepCell = (which: 'baseline' | 'head', name: string) => {
    const times = runs[which].map((r) => r.steps.get(name)).filter((t): t is number => t !== undefined);
    return times.length ? fmt(median(times)) : '—';
  };
  const row = (label: string, b: string, h: string, r = '') => `| ${label} | ${b} | ${h} | ${r} |`;
  /** A row of one figure: each commit's median and HEAD's ratio to the baseline. */
  const compared = (label: string, pick: (r: CiRun) => number) =>
    row(label, fmt(m('baseline', pick)), fmt(m('head', pick)), ratio(m('head', pick), m('baseline', pick)));
  const table = [
    `| | baseline \`${baseline}\` | HEAD \`${head}\` | HEAD ÷ baseline |`,
    '|---|--:|--:|--:|',
    ...stepNames.map((name) => row(`step \`${name}\` (s)`, stepCell('baseline', name), stepCell('head', name))),
    compared('before `npm test`: clone set-up, services, npm ci, system packages (s)', (r) => r.total - r.npmTest),
    compared('`npm test` (s)', (r) => r.npmTest),
    row('**whole `.ci/run`** (s)', `**${fmt(total.baseline)}**`, `**${fmt(total.head)}**`, `**${ratio(total.head, total.baseline)}**`),
    compared('busy CPU of the machine (s)', (r) => r.cpu),
    compared('tests passed', (r) => r.passed),
    row('seconds per test passed', perTest.baseline.toFixed(3), perTest.head.toFixed(3), ratio(perTest.head, perTest.baseline)),
    row('tests failed', runs.baseline.map((r) => r.failed).join(', '), runs.head.map((r) => r.failed).join(', ')),
  ];
  const body = `\`.ci/run\` on a fresh clone of each commit, with \`../shared\` beside it, one after the other (${ROUNDS} round${ROUNDS === 1 ? '' : 's'}; medians). The baseline is the commit on which issue 26 measured 2,321 s; its steps ran one after the other, on Vitest's own browser harness and the full Chromium. A step's time is what \`npm test\`'s summary printed for it; steps that ran side by side overlap, so they do not add up to \`npm test\`.

${table.join('\n')}

${allOk ? 'Every run passed.' : '**A run failed** (see the failed counts; logs in `.bench/ci-time/`): its time is not comparable.'}
`;
  const minutes = (s: number) => `${(s / 60).toFixed(1)} min (${fmt(s)} s)`;
  return [
    {
      title: 'CI on a clean clone, beside the baseline commit',
      body,
      summary: [
        {
          target: 'CI on a clean clone ≤ 20 min with the same tests (issue 26 §4)',
          figure: `${minutes(total.head)}, ${fmt(tests.head)} tests; baseline \`${baseline}\` ${minutes(total.baseline)}, ${fmt(tests.baseline)} tests`,
          met: allOk && total.head <= 20 * 60,
        },
        {
          target: "half the baseline commit's time, same machine, same hour (ratio ≤ 0.5)",
          figure: `whole run ${ratio(total.head, total.baseline)}; per test passed ${ratio(perTest.head, perTest.baseline)}`,
          met: allOk && total.head / total.baseline <= 0.5,
        },
      ],
    },
  ];
}
