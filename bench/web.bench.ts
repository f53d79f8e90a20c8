// The login page: JavaScript loaded before the form shows (gzip bytes, budget 200 KB =
// 200,000 bytes: decimal kilobytes, as apps/web/scripts/first-load.mjs counts them) and
// Lighthouse's mobile performance score (target 90), beside a plain-HTML login form (no
// script, bench/bare-server.ts) measured the same way.
import { gzipSync } from 'node:zlib';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../apps/web/e2e/chromium.ts';
import { fmt, startApp, startBare, type Section } from './lib.ts';

/** Kilobytes are decimal here, as in the budget (apps/web/scripts/first-load.mjs). */
const KB = 1000;
const BUDGET = 200 * KB;

const FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

async function firstLoadJs(url: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage();
    const scripts: { url: string; raw: number; gzip: number }[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      const buf = await res.body().catch(() => undefined);
      if (buf) scripts.push({ url: res.url(), raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length });
    });
    await page.goto(url + '/login');
    await page.getByTestId('login-submit').waitFor({ state: 'visible' });
    // The form is in the HTML (prerendered): count what loads until the app has taken it over.
    await page.waitForFunction(() => document.getElementById('root')?.dataset.prerendered === undefined);
    await page.waitForTimeout(300);
    return scripts;
  } finally {
    await browser.close();
  }
}

async function lighthouseScore(url: string) {
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: FLAGS });
  try {
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: ['performance'], output: 'json', logLevel: 'error' });
    const lhr = result?.lhr;
    if (!lhr) throw new Error('lighthouse returned nothing');
    const audit = (id: string) => lhr.audits[id]?.displayValue ?? '';
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcp: audit('first-contentful-paint'),
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
    };
  } finally {
    chrome.kill();
  }
}

export async function run(): Promise<Section[]> {
  const [app, bare] = await Promise.all([startApp(), startBare()]);
  try {
    const scripts = await firstLoadJs(app.url);
    const total = scripts.reduce((s, x) => s + x.gzip, 0);
    const raw = scripts.reduce((s, x) => s + x.raw, 0);
    const login = await lighthouseScore(app.url + '/login');
    const floor = await lighthouseScore(bare.url + '/login-form');
    const body = `| figure | /login | budget | baseline |
|---|---:|---:|---:|
| first-load JavaScript, gzip | **${fmt(total / KB, 1)} KB** (${fmt(total)} B, ${scripts.length} files, ${fmt(raw / KB)} KB raw): ${total <= BUDGET ? 'within' : '**OVER**'} | ≤ 200 KB (${fmt(BUDGET)} B) | bare antd 6 login form ≈ 163 KB; well-known admin templates 640–810 KB |
| Lighthouse mobile performance | **${login.score}** (FCP ${login.fcp}, LCP ${login.lcp}, TBT ${login.tbt}, CLS ${login.cls}) | ≥ 90 | a plain-HTML login form without script: ${floor.score} (FCP ${floor.fcp}, LCP ${floor.lcp}, TBT ${floor.tbt}) |

First-load JavaScript is every script the browser fetched from opening /login until the app
had taken over the form (the form itself is prerendered into the HTML, so it shows before any
script runs; main.tsx drops \`data-prerendered\` from #root once React owns it), each gzipped
at level 9 and summed (1 KB = 1,000 B):
${scripts.map((s) => `\`${new URL(s.url).pathname}\` ${fmt(s.gzip / KB, 1)} KB`).join(', ')}.
Lighthouse ${'12'} runs with its default mobile emulation and simulated throttling against the
built app served by the real server, in Debian's Chromium.`;
    return [{ title: 'Login page weight and speed', body }];
  } finally {
    await Promise.all([app.stop(), bare.stop()]);
  }
}
