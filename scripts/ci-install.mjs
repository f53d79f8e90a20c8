#!/usr/bin/env node
// CI's install (.ci/run, decision 0126): `npm ci`, with better-sqlite3's compiled addon kept
// between runs. The driver has no prebuilt binary for Node 20 that this machine can fetch, so
// `npm ci` compiles SQLite from source every time: about 120 s of one core, the longest part of
// the install. Here `npm ci --ignore-scripts` installs the packages, then the install scripts
// the root package.json allows (`allowScripts`) run as npm would run them, except that
// better-sqlite3's addon is copied from ~/.cache/clearplay (CLEARPLAY_CACHE) when a copy built
// for the same driver version, Node version and platform is there and opens a database. Otherwise
// it is compiled (`npm rebuild better-sqlite3`) and the result is kept for the next run.
// `npm install` on a developer's machine is untouched: it compiles once, as before.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { cache } from './node24.mjs';

const root = join(import.meta.dirname, '..');

function run(cmd, args) {
  const { status } = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (status !== 0) {
    console.error(`ci-install: ${cmd} ${args.join(' ')} failed (exit ${status})`);
    process.exit(status ?? 1);
  }
}

/** Whether this install's better-sqlite3 loads its addon and answers a query, in a fresh process. */
function driverWorks() {
  const probe =
    "const D = require('better-sqlite3'); const db = new D(':memory:'); if (db.prepare('select 1 as one').get().one !== 1) process.exit(1);";
  return spawnSync(process.execPath, ['-e', probe], { cwd: join(root, 'apps', 'server'), stdio: 'ignore' }).status === 0;
}

run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts']);

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const allowed = Object.entries(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).allowScripts ?? {})
  .filter(([, allow]) => allow === true)
  .map(([name]) => name)
  .filter((name) => lock.packages[`node_modules/${name}`]?.hasInstallScript === true);

for (const name of allowed) {
  if (name !== 'better-sqlite3') {
    run('npm', ['rebuild', name]);
    continue;
  }
  const { version } = lock.packages['node_modules/better-sqlite3'];
  const kept = join(cache, `better-sqlite3-${version}-node-${process.version}-${process.platform}-${process.arch}.node`);
  const addon = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(kept)) {
    mkdirSync(join(addon, '..'), { recursive: true });
    copyFileSync(kept, addon);
    if (driverWorks()) {
      console.log(`ci-install: better-sqlite3 ${version}: the addon compiled by an earlier run (${kept})`);
      continue;
    }
    console.log('ci-install: the kept better-sqlite3 addon does not load here; compiling it');
  }
  run('npm', ['rebuild', 'better-sqlite3']);
  if (!driverWorks()) {
    console.error('ci-install: better-sqlite3 was compiled but does not open a database');
    process.exit(1);
  }
  mkdirSync(cache, { recursive: true });
  copyFileSync(addon, `${kept}.partial`);
  renameSync(`${kept}.partial`, kept);
}
