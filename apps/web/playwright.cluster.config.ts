import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, JOURNEY_CHROMIUM_PATH, JOURNEY_TRACE } from './e2e/chromium.ts';

// The two-instance journeys (decision 0103): e2e-cluster/global-setup.ts starts a fresh
// PostgreSQL database (on the server TEST_PG_URL names), two ClearPlay processes on it and nginx
// in front of them with deploy/nginx/clearplay.conf; the journeys go through nginx with Debian's
// Chromium. One worker: the journeys steer nginx's round robin and read which instance answered,
// so no other journey's requests may come in between. No retries: a flake is a defect.
export default defineConfig({
  testDir: 'e2e-cluster',
  testMatch: '**/*.e2e.ts',
  outputDir: '../../.bench/e2e-cluster-results',
  globalSetup: ['./e2e/global-setup.ts', './e2e-cluster/global-setup.ts'],
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: process.env.E2E_REPORT ? [['list'], ['json', { outputFile: process.env.E2E_REPORT }]] : [['list']],
  use: {
    headless: true,
    // nginx serves a self-signed certificate made for the run.
    ignoreHTTPSErrors: true,
    trace: JOURNEY_TRACE,
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: JOURNEY_CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
});
