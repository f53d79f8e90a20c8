import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Each test file builds its own freshly migrated database (src/test/context.ts), so files
// run in parallel worker processes without sharing state.
//
// A test file reaches PostgreSQL or MariaDB only through the helpers in src/test/ (context.ts is
// the only code that reads TEST_DB). On TEST_DB=pg or mysql, the files that import none of them
// would run exactly as they do on SQLite, so only the files that do are run there: the rest
// (pure helpers, the upload host, the process tests, the SQLite backup) run once, in the SQLite
// step. A new test file is sorted by what it imports, with nobody to remember it.
const src = join(import.meta.dirname, 'src');
const TEST_HELPERS = /from '(?:\.\.?\/)+test\/(?:context|orders|plans)\.ts'/;

function databaseTestFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => TEST_HELPERS.test(readFileSync(join(src, file), 'utf8')))
    .map((file) => `src/${file.split('\\').join('/')}`);
}

const onSqlite = (process.env.TEST_DB ?? 'sqlite') === 'sqlite';

export default defineConfig({
  test: {
    include: onSqlite ? ['src/**/*.test.ts'] : databaseTestFiles(),
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
