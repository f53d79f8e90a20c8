// What a browser journey costs the machine, by the browser that drives it (decision 0123): the
// journeys' browser, Debian's old headless shell, beside the full Chromium in its new headless
// mode (the baseline), alternating in the same run; and what the journeys' trace costs on the
// shell: none, the journeys' light trace, and the former one (a screencast and DOM snapshots). One journey: two fresh contexts, each signing
// the super admin in on the built app and opening six screens by address, then a full-page
// screenshot, as the journeys do. Counted: the CPU time of the browser's whole process tree
// (browser, renderers, GPU and utility processes) from /proc, and the wall time.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, JOURNEY_CHROMIUM_PATH, JOURNEY_TRACE } from '../apps/web/e2e/chromium.ts';
import { ADMIN_PASSWORD, fmt, percentiles, procStat, ratio, startApp, type Section } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_JOURNEY_ROUNDS ?? 3);
const SCREENS = ['/order/inspect', '/system/user', '/system/dict', '/system/log', '/system/role', '/dashboard/workplace'];

interface Proc {
  pid: number;
  ppid: number;
  seconds: number;
  cmdline: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = procStat(Number(name));
      out.push({
        pid: Number(name),
        ppid: stat.ppid,
        seconds: (stat.ownMs + stat.childrenMs) / 1000,
        cmdline: readFileSync(`/proc/${name}/cmdline`, 'utf8'),
      });
    } catch {
      // the process ended while listed
    }
  }
  return out;
}

/** CPU seconds of the process started with `marker` among its arguments and all its descendants. */
function treeSeconds(marker: string): number {
  const all = processes();
  const root = all.find((p) => p.cmdline.includes(marker));
  if (root === undefined) throw new Error(`no browser process with ${marker}`);
  const tree = new Set([root.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.add(p.pid);
        grew = true;
      }
  }
  return all.filter((p) => tree.has(p.pid)).reduce((sum, p) => sum + p.seconds, 0);
}

type Trace = 'none' | 'light' | 'full';

async function journey(executablePath: string, url: string, round: string, trace: Trace = 'none'): Promise<{ cpu: number; wall: number }> {
  const marker = `--clearplay-bench-journey=${round}`;
  const started = performance.now();
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, marker], headless: true });
  try {
    for (let context = 0; context < 2; context++) {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
      if (trace !== 'none')
        await ctx.tracing.start(
          trace === 'light'
            ? { screenshots: JOURNEY_TRACE.screenshots, snapshots: JOURNEY_TRACE.snapshots, sources: JOURNEY_TRACE.sources }
            : { screenshots: true, snapshots: true, sources: true },
        );
      const page = await ctx.newPage();
      await page.goto(`${url}/login`);
      await page.getByTestId('login-username').fill('superadmin');
      await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('stat-balance-value').waitFor({ state: 'visible', timeout: 30_000 });
      for (const screen of SCREENS) {
        await page.goto(`${url}${screen}`);
        await page.waitForLoadState('networkidle');
      }
      await page.screenshot({ fullPage: true });
      // As retain-on-failure does for a passing test: the trace is written, then dropped.
      if (trace !== 'none') await ctx.tracing.stop({ path: join(tmpdir(), `clearplay-bench-trace-${process.pid}.zip`) });
      await ctx.close();
    }
    // Read before the browser closes: its children are still there to count.
    return { cpu: treeSeconds(marker), wall: (performance.now() - started) / 1000 };
  } finally {
    await browser.close();
  }
}

export async function run(): Promise<Section[]> {
  const app = await startApp({}, { built: true });
  const shell = { cpu: [] as number[], wall: [] as number[] };
  const full = { cpu: [] as number[], wall: [] as number[] };
  const light = { cpu: [] as number[], wall: [] as number[] };
  const heavy = { cpu: [] as number[], wall: [] as number[] };
  try {
    // One of each first, not counted: the server's first answers and the browsers' first start.
    await journey(JOURNEY_CHROMIUM_PATH, app.url, 'warm-shell');
    await journey(CHROMIUM_PATH, app.url, 'warm-full');
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, path, trace, into] of [
        ['shell', JOURNEY_CHROMIUM_PATH, 'none', shell],
        ['full', CHROMIUM_PATH, 'none', full],
        ['light', JOURNEY_CHROMIUM_PATH, 'light', light],
        ['heavy', JOURNEY_CHROMIUM_PATH, 'full', heavy],
      ] as const) {
        const m = await journey(path, app.url, `${round}-${name}`, trace);
        into.cpu.push(m.cpu);
        into.wall.push(m.wall);
      }
    }
  } finally {
    await app.stop();
    rmSync(join(tmpdir(), `clearplay-bench-trace-${process.pid}.zip`), { force: true });
  }
  console.log('journey browser', JSON.stringify({ shell, full, light, heavy }));
  const median = (xs: number[]) => percentiles(xs).p50;
  const cpu = { shell: median(shell.cpu), full: median(full.cpu), light: median(light.cpu), heavy: median(heavy.cpu) };
  const wall = { shell: median(shell.wall), full: median(full.wall), light: median(light.wall), heavy: median(heavy.wall) };
  const body = `
${ROUNDS} journeys with each browser, alternating: two fresh contexts, each signing the super admin in on the built app
and opening ${SCREENS.length} screens by address, then a full-page screenshot. CPU: the browser's whole process tree
(browser, renderers, GPU and utility processes) from /proc. Medians.

| figure | headless shell (the journeys') | full Chromium, new headless (baseline) | ratio |
| --- | --: | --: | --: |
| CPU of the browser's processes | ${fmt(cpu.shell, 1)} s | ${fmt(cpu.full, 1)} s | **${ratio(cpu.shell, cpu.full)}** |
| wall time | ${fmt(wall.shell, 1)} s | ${fmt(wall.full, 1)} s | ${ratio(wall.shell, wall.full)} |

The trace a journey records for its failure, on the shell, beside no trace (the shell's row above), same rounds:

| trace | CPU of the browser's processes | ratio to no trace | wall time | ratio |
| --- | --: | --: | --: | --: |
| actions, console, network (the journeys', JOURNEY_TRACE) | ${fmt(cpu.light, 1)} s | **${ratio(cpu.light, cpu.shell)}** | ${fmt(wall.light, 1)} s | ${ratio(wall.light, wall.shell)} |
| with a screencast and DOM snapshots (the former) | ${fmt(cpu.heavy, 1)} s | ${ratio(cpu.heavy, cpu.shell)} | ${fmt(wall.heavy, 1)} s | ${ratio(wall.heavy, wall.shell)} |
`;
  return [
    {
      title: "The journeys' browser",
      body,
      summary: [
        {
          target: 'a journey costs the machine less CPU with the headless shell than with the full browser (ratio < 1)',
          figure: `CPU ratio ${ratio(cpu.shell, cpu.full)}, wall ratio ${ratio(wall.shell, wall.full)}`,
          met: cpu.shell < cpu.full,
        },
        {
          target: "the journeys' trace costs the browser little over no trace (the former one, for comparison)",
          figure: `CPU ratio ${ratio(cpu.light, cpu.shell)} (former: ${ratio(cpu.heavy, cpu.shell)})`,
          met: null,
        },
      ],
    },
  ];
}
