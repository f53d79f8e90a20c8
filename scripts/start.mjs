#!/usr/bin/env node
// `npm start [-- --demo]`: builds what is missing or out of date, then runs the compiled server
// in this process (its arguments, e.g. --demo, reach config.ts as they were typed).
//   - the web app (apps/web/dist, `npm run build -w @clearplay/web`) and
//   - the server bundle (apps/server/dist/server.js, scripts/build-server.mjs)
// are each rebuilt only when no build exists or a source file changed since the last one. A
// source fingerprint (every input file's path, size and modification time, hashed) is kept
// beside each build; listing a few hundred files takes milliseconds, so a second start goes
// straight to the server.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Where scripts/build-server.mjs writes the bundle (esbuild itself is loaded only to build).
const SERVER_OUT = join(root, 'apps', 'server', 'dist', 'server.js');
const stamps = join(root, 'node_modules', '.cache', 'clearplay-start');

const shared = ['packages/contract/src', 'packages/contract/package.json', 'package-lock.json'];
const targets = [
  {
    name: 'web app',
    output: join(root, 'apps', 'web', 'dist', 'index.html'),
    inputs: ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/package.json', ...shared],
    build: () => {
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const result = spawnSync(npm, ['run', 'build', '-w', '@clearplay/web'], { cwd: root, stdio: 'inherit' });
      if (result.status !== 0) throw new Error('the web app build failed (see above)');
    },
  },
  {
    name: 'server',
    output: SERVER_OUT,
    inputs: ['apps/server/src', 'apps/server/package.json', 'scripts/build-server.mjs', ...shared],
    build: async () => (await import('./build-server.mjs')).buildServer(),
  },
];

/** Files under `path` (or `path` itself), tests left out: they are not part of a build. */
function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const full = join(path, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'test' ? [] : files(full);
    return /\.test\.tsx?$/.test(entry.name) ? [] : [full];
  });
}

function fingerprint(inputs) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of files(join(root, input)).sort()) {
      const { size, mtimeMs } = statSync(file);
      hash.update(`${relative(root, file)}\0${size}\0${mtimeMs}\n`);
    }
  }
  return hash.digest('hex');
}

mkdirSync(stamps, { recursive: true });
for (const target of targets) {
  const stampFile = join(stamps, `${target.name.replace(/\W/g, '-')}.sha256`);
  const before = fingerprint(target.inputs);
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
  if (existsSync(target.output) && stamp === before) continue;
  console.log(`Building the ${target.name} (${existsSync(target.output) ? 'its sources changed' : 'no build yet'})…`);
  const started = Date.now();
  try {
    await target.build();
  } catch (error) {
    console.error(`ClearPlay could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  writeFileSync(stampFile, before);
  console.log(`Built the ${target.name} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

await import(pathToFileURL(SERVER_OUT).href);
