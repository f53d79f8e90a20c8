// Debian's Chromium, as the browser journeys (playwright.config.ts) and the browser benches
// (bench/web.bench.ts, bench/landing.bench.ts) start it: no browser is downloaded here.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
