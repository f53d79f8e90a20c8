// Before any journey: the API server's bundle is built from the sources, the way `npm start`
// and `npm run build` build it (scripts/build-server.mjs), so every journey's server process
// (harness.ts, `spawnServer`) runs the code under test and starts in a fraction of tsx's time.
// Skipped when the bundle is newer than everything it is built from (CI's build step has just
// built it, or an earlier run did): a local run still never tests a stale bundle.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './harness.ts';

/** What scripts/build-server.mjs writes: the server and its two worker threads' modules. */
const OUTPUTS = ['server.js', 'import-worker.js', 'hash-worker.js'].map((name) => join(repoRoot, 'apps', 'server', 'dist', name));

/**
 * What it bundles: the server's sources, the contract package's (its exports point at src/), the
 * pure-JS libraries from node_modules (npm rewrites its lockfiles on every install), and what
 * esbuild reads to resolve and compile them. A folder counts too: its time changes when a file
 * in it is added, renamed or deleted.
 */
const INPUTS = [
  'apps/server/src',
  'packages/contract/src',
  'scripts/build-server.mjs',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'packages/contract/package.json',
  'packages/contract/tsconfig.json',
  'tsconfig.base.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
].map((path) => join(repoRoot, path));

/** The latest modification time under `path` (0 when it does not exist). */
function newest(path: string): number {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

/** True when every output exists and is newer than every input. */
export function bundleIsCurrent(outputs: readonly string[] = OUTPUTS, inputs: readonly string[] = INPUTS): boolean {
  let oldestOutput = Infinity;
  for (const output of outputs) {
    try {
      oldestOutput = Math.min(oldestOutput, statSync(output).mtimeMs);
    } catch {
      return false;
    }
  }
  return inputs.every((input) => newest(input) < oldestOutput);
}

export default function globalSetup(): void {
  if (bundleIsCurrent()) return;
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-server.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`building the server bundle failed (exit ${String(built.status)})`);
}
