import { defineConfig } from 'vitest/config';

// Each test file builds its own freshly migrated database (src/test/context.ts), so files
// run in parallel worker processes without sharing state.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
