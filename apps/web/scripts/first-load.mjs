#!/usr/bin/env node
// Measures the login page's first-load JavaScript (decision 0075): the entry chunk,
// every chunk it imports statically, the default language's messages, and the login
// screen's chunk with its static imports (what the browser must fetch before the form
// shows). Each file is gzipped on its own (level 9), as a server would send it. Reads dist/.vite/manifest.json from
// `vite build`. Prints JSON; exits 1 when over the budget.
//   node apps/web/scripts/first-load.mjs [--page login|public|charts] [--budget 200000]
// Budgets are in decimal kilobytes (200 KB = 200,000 bytes), the stricter reading.
// --page charts: the lazy chart chunk(s) instead (decision 0073, budget 175 KB): the chunk of
// components/charts/echarts-setup.ts and its static imports, less what any other chunk needs too.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
// --page public: the public pages' entry (public.html, decision 0068) instead, budget 120 KB.
const KB = 1000;
const pageArg = process.argv.indexOf('--page');
const page = pageArg > 0 ? process.argv[pageArg + 1] : 'login';
const budgetArg = process.argv.indexOf('--budget');
const defaultBudget = { public: 120 * KB, charts: 175 * KB }[page] ?? 200 * KB;
const budget = budgetArg > 0 ? Number(process.argv[budgetArg + 1]) : defaultBudget;

/** Every manifest key reachable from `key` through static imports. */
function closure(key, into = new Set()) {
  if (into.has(key)) return into;
  into.add(key);
  for (const dep of manifest[key].imports ?? []) closure(dep, into);
  return into;
}
const gzipRow = (file) => {
  const raw = readFileSync(join(dist, file));
  return { file, bytes: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
};
const sum = (list, field) => list.reduce((total, row) => total + row[field], 0);

if (page === 'charts') {
  const setupKey = Object.keys(manifest).find((key) => key.endsWith('components/charts/echarts-setup.ts'));
  if (!setupKey) throw new Error('the chart chunk (components/charts/echarts-setup.ts) is not in the manifest');
  const charts = closure(setupKey);
  const elsewhere = new Set();
  for (const key of Object.keys(manifest)) if (!charts.has(key)) closure(key, elsewhere);
  const rows = [...charts].filter((key) => !elsewhere.has(key)).map((key) => gzipRow(manifest[key].file));
  const gzip = sum(rows, 'gzip');
  const result = {
    jsGzipBytes: gzip,
    jsRawBytes: sum(rows, 'bytes'),
    budgetBytes: budget,
    withinBudget: gzip <= budget,
    files: rows.sort((a, b) => b.gzip - a.gzip),
  };
  console.log(JSON.stringify(result, null, 2));
  process.exit(result.withinBudget ? 0 : 1);
}

const entryName = page === 'public' ? 'public.html' : 'index.html';
const entryKey = manifest[entryName]?.isEntry ? entryName : undefined;
const loginKey = Object.keys(manifest).find((key) => key.endsWith('features/auth/LoginPage.tsx'));
if (!entryKey || !loginKey) throw new Error('entry or login chunk not found in the manifest');

const keys = closure(entryKey);
if (page !== 'public') closure(loginKey, keys);
// The default language's messages load before the first render (src/lib/i18n.ts).
const localeKey = Object.keys(manifest).find((key) => key.endsWith('locales/zh-CN.ts'));
if (localeKey) closure(localeKey, keys);
// The public pages' own messages load with them (src/public.tsx, decision 0112).
const publicLocaleKey = Object.keys(manifest).find((key) => key.endsWith('locales/screens/public.zh-CN.ts'));
if (page === 'public') {
  if (!publicLocaleKey) throw new Error('the public messages (locales/screens/public.zh-CN.ts) are not in the manifest');
  closure(publicLocaleKey, keys);
}
const files = new Set([...keys].flatMap((key) => [manifest[key].file, ...(manifest[key].css ?? [])]));

const rows = [...files].map(gzipRow);
const js = rows.filter((row) => row.file.endsWith('.js'));
const css = rows.filter((row) => row.file.endsWith('.css'));
const html = gzipSync(readFileSync(join(dist, page === 'public' ? 'prerendered/landing.zh-CN.html' : 'index.html')), { level: 9 }).length;
const result = {
  jsGzipBytes: sum(js, 'gzip'),
  jsRawBytes: sum(js, 'bytes'),
  cssGzipBytes: sum(css, 'gzip'),
  htmlGzipBytes: html,
  budgetBytes: budget,
  withinBudget: sum(js, 'gzip') <= budget,
  files: rows.sort((a, b) => b.gzip - a.gzip),
};
console.log(JSON.stringify(result, null, 2));
process.exit(result.withinBudget ? 0 : 1);
