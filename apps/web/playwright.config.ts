import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, JOURNEY_CHROMIUM_PATH, JOURNEY_TRACE } from './e2e/chromium.ts';

// Browser journeys (decision 0095): @playwright/test drives Debian's Chromium headless shell (decision 0123) against the built
// app, served by a real server process per journey file on its own temporary SQLite database
// (e2e/harness.ts). Files run side by side on E2E_WORKERS workers (2 by default: the CI machine
// has 2 cores, and a journey spends most of its time waiting on the browser and the server);
// the tests of one file run in order, one after the other. No retries: a flake is a defect.
// A failed test keeps its trace (the action log, console and network: JOURNEY_TRACE) and a
// screenshot of each open page in .bench/e2e-results.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.e2e.ts',
  globalSetup: './e2e/global-setup.ts',
  outputDir: '../../.bench/e2e-results',
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: process.env.E2E_REPORT ? [['list'], ['json', { outputFile: process.env.E2E_REPORT }]] : [['list']],
  use: {
    headless: true,
    // A click or a navigation that cannot happen fails within this, naming what it waited for,
    // instead of holding the test until its own timeout.
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    trace: JOURNEY_TRACE,
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: JOURNEY_CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
});
