// Debian's Chromium, as the browser journeys (playwright.config.ts) and the browser benches
// (bench/web.bench.ts, bench/landing.bench.ts) start it: no browser is downloaded here.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The journeys' browser (decision 0123): Debian's build of Chromium's old headless shell, the same
 * Blink and V8 without the desktop browser's UI, which Playwright itself uses for headless runs.
 * The same journey cost about a fifth less of the machine's CPU than with the full browser in its
 * new headless mode. The benches keep the full browser (Lighthouse starts it; a person's browser).
 */
export const JOURNEY_CHROMIUM_PATH = process.env.JOURNEY_CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

/**
 * Without the background-networking flags Chromium keeps trying to reach Google's hosts, which
 * this machine's closed network refuses; the rest keep a headless run lean and repeatable.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * What a journey records for its failure (decision 0123): the trace's action log with timings, the
 * console, the network and the errors, without a screencast or a DOM snapshot at every action.
 * Those two doubled the browser's CPU over a journey (snapshots alone: +40 %) for every test, to
 * keep them for the rare failed one; the failure still keeps its screenshot and the page's
 * accessibility snapshot (error-context.md).
 */
export const JOURNEY_TRACE = { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: true } as const;
