import { defineConfig } from 'vitest/config';

// Browser journeys: playwright-core drives Debian's Chromium against the built app served by
// the real server on a temporary SQLite database. Files run one at a time (2-core machines).
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
