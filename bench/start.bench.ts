// Start to healthy: a second `npm start` (builds exist and are current) until GET /api/health
// answers, beside `node` starting a bare Fastify hello (bench/bare-server.ts's /noop, as plain
// JavaScript) until it answers. Both are timed from spawn to the first 200, polling every 10 ms.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PASSWORD, fmt, freePort, ratio, repoRoot, type Section } from './lib.ts';

const ROUNDS = 7;

/** bench/bare-server.ts's hello, as JavaScript that `node` runs without a loader. */
const BARE_HELLO = `import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/noop', async () => ({ status: 200, msg: 'ok', data: null }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
`;

async function timeToHealthy(command: string, args: string[], env: Record<string, string>, path: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  // Its own process group: npm runs the script through a shell, so the group is ended together.
  const child: ChildProcess = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited early:\n${out}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}${path}`)).ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) throw new Error(`${command} not healthy in time:\n${out}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function run(): Promise<Section[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'clearplay-bench-start-'));
  const scratch = join(repoRoot, '.bench');
  mkdirSync(scratch, { recursive: true });
  const bareFile = join(scratch, 'bare-hello.mjs');
  writeFileSync(bareFile, BARE_HELLO);
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', INIT_ADMIN_PASSWORD: ADMIN_PASSWORD };
  try {
    // The first start builds what is missing and creates the database; it is not measured.
    const first = await timeToHealthy('npm', ['start'], env, '/api/health');
    const npmStart: number[] = [];
    const nodeStart: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      npmStart.push(await timeToHealthy('npm', ['start'], env, '/api/health'));
      nodeStart.push(await timeToHealthy(process.execPath, ['scripts/start.mjs'], env, '/api/health'));
      bare.push(await timeToHealthy(process.execPath, [bareFile], {}, '/noop'));
    }
    const [app, direct, floor] = [median(npmStart), median(nodeStart), median(bare)];
    return [
      {
        title: 'Start to healthy',
        body: `Median of ${ROUNDS} rounds, each from spawn to the first 200 of the health check (polled every 10 ms),
on a SQLite database already created, with the web and server builds current (the second start).

| | median ms | ratio to bare |
| --- | ---: | ---: |
| \`npm start\` (second start) → \`GET /api/health\` | ${fmt(app)} | ${ratio(app, floor)} |
| \`node scripts/start.mjs\` (the same without npm) | ${fmt(direct)} | ${ratio(direct, floor)} |
| baseline: \`node\` starting a bare Fastify hello → \`GET /noop\` | ${fmt(floor)} | 1.000 |

Target: the second \`npm start\` healthy in ≤ 1,500 ms. The first start (build check, migrations,
super admin) took ${fmt(first)} ms here with the builds already present.`,
      },
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
