// The type check, the lint and CI's install, each beside what it replaced, back to back on the
// same machine (issue #26 §4; decisions 0125, 0126):
// - type check: TypeScript 6's `tsc --noEmit` on the four projects (the `typescript` package,
//   still installed for typescript-eslint) against `scripts/typecheck.mjs` (TypeScript 7, one
//   thread);
// - lint: ESLint with the two type-aware promise rules on typescript-eslint's project service
//   (the repository's config plus the block decision 0125 removed, written to a temporary config)
//   against ESLint without them followed by `oxlint --type-aware`. Prettier and the decisions
//   index run the same in both, so they are left out;
// - install: `npm ci` against `scripts/ci-install.mjs` on a fresh clone of HEAD, each from an
//   empty node_modules (the second with the addon an earlier run kept, as on CI; the bench
//   makes sure one is kept first).
// Each is counted in wall seconds and in the machine's busy CPU seconds (/proc/stat).
// BENCH_CHECKS_ROUNDS (default 1) rounds; rounds alternate which side goes first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { busyCpuSeconds, fmt, median, ratio, repoRoot, type Section } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_CHECKS_ROUNDS ?? 1);

interface Timed {
  wall: number;
  cpu: number;
  ok: boolean;
}

/** Runs the commands one after the other (stopping at a failure): wall and busy CPU seconds. */
function timed(commands: readonly (readonly string[])[], cwd = repoRoot): Timed {
  const cpuBefore = busyCpuSeconds();
  const started = Date.now();
  let ok = true;
  for (const [cmd, ...args] of commands) {
    const r = spawnSync(cmd!, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) {
      console.log(`  ${cmd} ${args.join(' ')}: exit ${r.status}\n${(r.stdout + r.stderr).slice(-2000)}`);
      ok = false;
      break;
    }
  }
  return { wall: (Date.now() - started) / 1000, cpu: busyCpuSeconds() - cpuBefore, ok };
}

const PROJECTS = ['packages/contract', 'apps/server', 'apps/web', 'bench'];
const TS6 = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/** The lint's type-aware block as it was before decision 0125, on top of today's config. */
const TYPED_CONFIG = `import config from './eslint.config.js';
export default [
  ...config,
  {
    files: ['{apps/server,apps/web,packages/contract,bench}/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
];
`;

interface Pair {
  label: string;
  before: string;
  after: string;
  runBefore: () => Timed;
  runAfter: () => Timed;
}

function freshClone(): { dir: string; checkout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'clearplay-install-'));
  const checkout = join(dir, 'main');
  const r = spawnSync('git', ['clone', '--quiet', repoRoot, checkout]);
  if (r.status !== 0) throw new Error(`git clone: ${r.stderr}`);
  return { dir, checkout };
}

export async function run(): Promise<Section[]> {
  const typedConfig = join(repoRoot, 'eslint.typed-bench.config.js');
  writeFileSync(typedConfig, TYPED_CONFIG);
  const clone = freshClone();
  const emptied = (commands: readonly (readonly string[])[]) => () => {
    rmSync(join(clone.checkout, 'node_modules'), { recursive: true, force: true });
    return timed(commands, clone.checkout);
  };
  const pairs: Pair[] = [
    {
      label: 'type check, four projects',
      before: 'TypeScript 6 `tsc --noEmit`',
      after: '`scripts/typecheck.mjs` (TypeScript 7, one thread)',
      runBefore: () => timed(PROJECTS.map((p) => [process.execPath, TS6, '--noEmit', '-p', p])),
      runAfter: () => timed([[process.execPath, 'scripts/typecheck.mjs']]),
    },
    {
      label: 'lint, without Prettier and the index',
      before: 'ESLint with the typed promise rules',
      after: 'ESLint, then `oxlint --type-aware`',
      runBefore: () => timed([['npx', 'eslint', '-c', typedConfig, '.']]),
      runAfter: () =>
        timed([
          ['npx', 'eslint', '.'],
          ['npx', 'oxlint', '--type-aware', 'apps', 'packages', 'bench'],
        ]),
    },
    {
      label: "CI's install on a fresh clone",
      before: '`npm ci`',
      after: '`scripts/ci-install.mjs`, the addon kept',
      runBefore: emptied([['npm', 'ci', '--no-audit', '--no-fund']]),
      runAfter: emptied([[process.execPath, 'scripts/ci-install.mjs']]),
    },
  ];
  const results = new Map<string, { before: Timed[]; after: Timed[] }>();
  try {
    // A kept addon first, as on a CI machine that has run once (the first run compiles it).
    const warm = emptied([[process.execPath, 'scripts/ci-install.mjs']])();
    if (!warm.ok) throw new Error('scripts/ci-install.mjs failed on a fresh clone');
    for (const pair of pairs) {
      const r = { before: [] as Timed[], after: [] as Timed[] };
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
        for (const side of order) {
          console.log(`  ${pair.label}: ${side} (round ${round + 1}/${ROUNDS})`);
          r[side].push(side === 'before' ? pair.runBefore() : pair.runAfter());
        }
      }
      results.set(pair.label, r);
    }
  } finally {
    rmSync(typedConfig, { force: true });
    rmSync(clone.dir, { recursive: true, force: true });
  }

  const allOk = [...results.values()].every((r) => [...r.before, ...r.after].every((t) => t.ok));
  const rows = pairs.map((pair) => {
    const r = results.get(pair.label)!;
    const m = (side: 'before' | 'after', pick: (t: Timed) => number) => median(r[side].map(pick));
    return `| ${pair.label} | ${pair.before}: ${fmt(m('before', (t) => t.wall))} s, ${fmt(m('before', (t) => t.cpu))} CPU-s | ${pair.after}: ${fmt(m('after', (t) => t.wall))} s, ${fmt(m('after', (t) => t.cpu))} CPU-s | ${ratio(
      m('after', (t) => t.wall),
      m('before', (t) => t.wall),
    )} | ${ratio(
      m('after', (t) => t.cpu),
      m('before', (t) => t.cpu),
    )} |`;
  });
  const body = `Each check beside what it replaced, back to back on the same machine (${ROUNDS} round${ROUNDS === 1 ? '' : 's'}; medians). CPU-s: the machine's busy CPU seconds over the run, both cores. Decisions 0125 (type check, lint) and 0126 (install).

| | before | after | wall ÷ before | CPU ÷ before |
|---|---|---|--:|--:|
${rows.join('\n')}

${allOk ? 'Every run passed.' : '**A run failed** (its output is above in the bench log): its time is not comparable.'}
`;
  return [{ title: 'The type check, the lint and the install, beside what they replaced', body }];
}
