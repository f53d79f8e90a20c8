#!/usr/bin/env node
// Bundles the API server (apps/server/src/server.ts) into apps/server/dist/server.js with
// esbuild: our code, the contract workspace package and the pure-JS libraries in one ES module,
// which Node loads far faster than tsx compiling hundreds of TypeScript files at every start.
// Left outside the bundle and loaded from node_modules as usual:
//   - native drivers and bindings (better-sqlite3, @node-rs/argon2) and the database clients,
//     imported only for the configured database (db/index.ts);
//   - exceljs, imported lazily by the order import, so a start never loads it;
//   - @fastify/swagger-ui, which serves files from its own package folder.
// Migrations are a static import list (db/migrate.ts), so they are bundled like any module.
// Each worker thread's module is a bundle of its own beside server.js, where
// lib/module-worker.ts looks for it: the order import's (modules/orders/import/worker.ts) is
// dist/import-worker.js, the upload hashing threads' (modules/uploads/hashing/hash-worker.ts)
// dist/hash-worker.js.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_OUT = join(root, 'apps', 'server', 'dist', 'server.js');
const IMPORT_WORKER_OUT = join(root, 'apps', 'server', 'dist', 'import-worker.js');
const HASH_WORKER_OUT = join(root, 'apps', 'server', 'dist', 'hash-worker.js');

const EXTERNAL = [
  'better-sqlite3',
  'better-sqlite3-node22',
  'pg',
  'pg-native',
  'mysql2',
  '@node-rs/argon2',
  'exceljs',
  '@fastify/swagger-ui',
];

export async function buildServer() {
  await bundle(join(root, 'apps', 'server', 'src', 'server.ts'), SERVER_OUT);
  await bundle(join(root, 'apps', 'server', 'src', 'modules', 'orders', 'import', 'worker.ts'), IMPORT_WORKER_OUT);
  await bundle(join(root, 'apps', 'server', 'src', 'modules', 'uploads', 'hashing', 'hash-worker.ts'), HASH_WORKER_OUT);
}

async function bundle(entry, outfile) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
    // CommonJS libraries inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __cpCreateRequire } from 'node:module'; const require = __cpCreateRequire(import.meta.url);" },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
