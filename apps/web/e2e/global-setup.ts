// Before any journey: the API server's bundle is built from the sources, the way `npm start`
// and `npm run build` build it (scripts/build-server.mjs), so every journey's server process
// (harness.ts, `spawnServer`) runs the code under test and starts in a fraction of tsx's time.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './harness.ts';

export default function globalSetup(): void {
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-server.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`building the server bundle failed (exit ${String(built.status)})`);
}
