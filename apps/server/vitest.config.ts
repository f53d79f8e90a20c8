import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Each test file builds its own freshly migrated database (src/test/context.ts), so files
// share no state through the database.
//
// Not isolated (isolate: false): a worker process runs file after file and keeps the modules
// it has loaded, instead of a fresh process importing Fastify, Kysely, the drivers and the
// whole app again for each of the ~85 files (70-80 s of a 2-core run). What a file leaves in a
// module is a cache keyed by what it caches (parsed permission texts, a TOTP box per DATA_DIR
// and key, the last formatted instant) or an unref'd worker; no test mocks a module or
// touches process.env, and each file that fakes the clock or spies restores it in afterEach
// or finally; src/test/between-files.ts puts back the clock, spies, stubbed globals and
// environment at the end of every file all the same. A test that needs a fresh process
// (a module-level state of its own) must get it from a project of its own.
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
    isolate: false,
    setupFiles: ['src/test/between-files.ts'],
    // One migrated, seeded database per run, copied by every test context (decision 0122).
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
