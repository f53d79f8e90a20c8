#!/usr/bin/env node
// `npm run bench [-- name ...]`: builds the web app, then runs bench/run.ts under tsx.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (!process.env.BENCH_SKIP_BUILD) run('npm', ['run', 'build']);
run(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...process.argv.slice(2)]);
