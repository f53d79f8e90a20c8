#!/usr/bin/env node
// `npm run typecheck`: TypeScript 7's native compiler (decision 0125) checks each project, one
// after the other, on one thread each: the contract, the server, the web app (its e2e files
// included) and the benches. `node scripts/typecheck.mjs apps/web` checks one. TypeScript 6 stays
// installed as `typescript` for the tools that need its JavaScript API (typescript-eslint's parser);
// TypeScript 7 has none, and is installed beside it as `typescript-7`.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript-7/package.json')), 'bin', 'tsc');
const projects = process.argv.slice(2);

let failed = 0;
for (const project of projects.length > 0 ? projects : ['packages/contract', 'apps/server', 'apps/web', 'bench']) {
  // One thread: on the 2-core CI machine this step shares the cores with another step (decision
  // 0124), and the compiler's parallel checkers each repeat part of the work (68 CPU-s against 27
  // for the four projects, measured).
  const { status } = spawnSync(process.execPath, [tsc, '--noEmit', '--singleThreaded', '-p', project], { cwd: root, stdio: 'inherit' });
  if (status !== 0) {
    console.error(`typecheck: ${project} has type errors`);
    failed += 1;
  }
}
process.exit(failed === 0 ? 0 : 1);
