import { defineConfig } from 'vitest/config';

// `vitest run` here (the `web:unit` step of `npm test`): plain functions in Node (`*.test.ts`),
// house components in jsdom with Testing Library (`*.test.tsx`). The browser journeys have
// their own runner, @playwright/test (playwright.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        // A module that imports antd's barrel (lib/theme.ts, through lib/settings.ts) takes seconds
        // to load the first time on a loaded 2-core machine: more than the default 5 s once.
        test: { name: 'unit', include: ['src/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 30_000 },
      },
      {
        test: {
          name: 'components',
          include: ['src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // antd's first render in a fresh jsdom (CSS-in-JS) is slow on a loaded 2-core machine.
          testTimeout: 30_000,
          hookTimeout: 30_000,
          unstubGlobals: true,
        },
      },
    ],
  },
});
