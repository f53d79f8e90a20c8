// The landing page `/`: JavaScript loaded until the look-up form works (gzip bytes,
// target ≤ 120 KB = 120,000 bytes, decimal as in apps/web/scripts/first-load.mjs) and
// Lighthouse mobile (performance, accessibility, best practices, SEO; target ≥ 95 each),
// beside the login page measured the same way in the same run.
import { gzipSync } from 'node:zlib';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../apps/web/e2e/chromium.ts';
import { fmt, startApp, type Section } from './lib.ts';

const KB = 1000;

const FLAGS = ['--headless=new', ...CHROMIUM_ARGS];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

async function loadedJs(url: string, ready: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage();
    const scripts: { url: string; gzip: number }[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      const buf = await res.body().catch(() => undefined);
      if (buf) scripts.push({ url: res.url(), gzip: gzipSync(buf, { level: 9 }).length });
    });
    await page.goto(url);
    await page.getByTestId(ready).waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    return scripts;
  } finally {
    await browser.close();
  }
}

async function scores(url: string) {
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: FLAGS });
  try {
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: [...CATEGORIES], output: 'json', logLevel: 'error' });
    const lhr = result?.lhr;
    if (!lhr) throw new Error('lighthouse returned nothing');
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id);
    return {
      ...Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
      fcp: lhr.audits['first-contentful-paint']?.displayValue ?? '',
      lcp: lhr.audits['largest-contentful-paint']?.displayValue ?? '',
      tbt: lhr.audits['total-blocking-time']?.displayValue ?? '',
      failing,
    } as Record<(typeof CATEGORIES)[number], number> & { fcp: string; lcp: string; tbt: string; failing: string[] };
  } finally {
    chrome.kill();
  }
}

export async function run(): Promise<Section[]> {
  const app = await startApp();
  try {
    const landingJs = await loadedJs(app.url + '/', 'public-lookup-input');
    const loginJs = await loadedJs(app.url + '/login', 'login-submit');
    const sum = (list: { gzip: number }[]) => list.reduce((s, x) => s + x.gzip, 0);
    const landing = await scores(app.url + '/');
    const login = await scores(app.url + '/login');
    const row = (name: string, s: typeof landing, js: number, files: number) =>
      `| ${name} | **${fmt(js / KB, 1)} KB** (${files} files) | ${CATEGORIES.map((c) => s[c]).join(' / ')} | FCP ${s.fcp}, LCP ${s.lcp}, TBT ${s.tbt} |`;
    const body = `| page | JavaScript loaded, gzip | Lighthouse mobile: performance / accessibility / best practices / SEO | timings |
|---|---:|---:|---|
${row('/ (landing)', landing, sum(landingJs), landingJs.length)}
${row('/login (baseline, same run)', login, sum(loginJs), loginJs.length)}

Targets on \`/\`: ≤ 120 KB gzip of JavaScript — **${sum(landingJs) <= 120 * KB ? 'met' : 'NOT met'}**; every Lighthouse category ≥ 95 —
**${CATEGORIES.every((c) => landing[c] >= 95) ? 'met' : 'NOT met'}**${landing.failing.length > 0 ? ` (failing audits: ${landing.failing.join(', ')})` : ''}.
JavaScript = every script fetched from opening the page until its form shows and the network is idle, each gzipped at
level 9: ${landingJs.map((s) => `\`${new URL(s.url).pathname}\` ${fmt(s.gzip / KB, 1)} KB`).join(', ')}.
The public pages are their own entry (public.html, decision 0068): React, i18next, the pages and dayjs for dates,
no antd, router, chart or back-office code; \`/\` comes prerendered (the headline and the look-up form are in the HTML),
so the scripts only hydrate it and fetch prices and figures. The login page loads the back office's entry. Lighthouse
runs with its default mobile emulation and simulated throttling against the built app served by the real server (demo
data); the machine is shared, so the timings move between runs while the sizes do not.`;
    return [{ title: 'Landing page weight and speed', body }];
  } finally {
    await app.stop();
  }
}
