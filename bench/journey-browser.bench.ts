// What a browser journey costs the machine, by the browser that drives it (decision 0123): the
// journeys' browser, Debian's old headless shell, beside the full Chromium in its new headless
// mode (the baseline), alternating in the same run. One journey: two fresh contexts, each signing
// the super admin in on the built app and opening six screens by address, then a full-page
// screenshot, as the journeys do. Counted: the CPU time of the browser's whole process tree
// (browser, renderers, GPU and utility processes) from /proc, and the wall time.
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, JOURNEY_CHROMIUM_PATH } from '../apps/web/e2e/chromium.ts';
import { ADMIN_PASSWORD, fmt, percentiles, ratio, startApp, type Section } from './lib.ts';

const ROUNDS = Number(process.env.BENCH_JOURNEY_ROUNDS ?? 3);
const SCREENS = ['/order/inspect', '/system/user', '/system/dict', '/system/log', '/system/role', '/dashboard/workplace'];
const TICKS = 100; // USER_HZ: /proc's unit of CPU time on Linux

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
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command's name in parentheses: state, ppid, …; utime, stime, cutime, cstime are fields 14–17.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      out.push({
        pid: Number(name),
        ppid: Number(fields[1]),
        seconds: ticks / TICKS,
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

async function journey(executablePath: string, url: string, round: string): Promise<{ cpu: number; wall: number }> {
  const marker = `--clearplay-bench-journey=${round}`;
  const started = performance.now();
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, marker], headless: true });
  try {
    for (let context = 0; context < 2; context++) {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
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
  try {
    // One of each first, not counted: the server's first answers and the browsers' first start.
    await journey(JOURNEY_CHROMIUM_PATH, app.url, 'warm-shell');
    await journey(CHROMIUM_PATH, app.url, 'warm-full');
    for (let round = 0; round < ROUNDS; round++) {
      for (const [path, into] of [
        [JOURNEY_CHROMIUM_PATH, shell],
        [CHROMIUM_PATH, full],
      ] as const) {
        const m = await journey(path, app.url, `${round}-${into === shell ? 'shell' : 'full'}`);
        into.cpu.push(m.cpu);
        into.wall.push(m.wall);
      }
    }
  } finally {
    await app.stop();
  }
  console.log('journey browser', JSON.stringify({ shell, full }));
  const cpu = { shell: percentiles(shell.cpu).p50, full: percentiles(full.cpu).p50 };
  const wall = { shell: percentiles(shell.wall).p50, full: percentiles(full.wall).p50 };
  const body = `
${ROUNDS} journeys with each browser, alternating: two fresh contexts, each signing the super admin in on the built app
and opening ${SCREENS.length} screens by address, then a full-page screenshot. CPU: the browser's whole process tree
(browser, renderers, GPU and utility processes) from /proc. Medians.

| figure | headless shell (the journeys') | full Chromium, new headless (baseline) | ratio |
| --- | --: | --: | --: |
| CPU of the browser's processes | ${fmt(cpu.shell, 1)} s | ${fmt(cpu.full, 1)} s | **${ratio(cpu.shell, cpu.full)}** |
| wall time | ${fmt(wall.shell, 1)} s | ${fmt(wall.full, 1)} s | ${ratio(wall.shell, wall.full)} |
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
      ],
    },
  ];
}
