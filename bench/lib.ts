import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One row of docs/benchmarks.md's summary: a target, the latest figure with its ratio, and whether it is met (null: no target). */
export interface SummaryRow {
  target: string;
  figure: string;
  met: boolean | null;
}

export interface Section {
  title: string;
  /** Markdown body: a table of figures with their baselines, and notes. */
  body: string;
  /** The section's rows of the summary; without them the summary keeps the last run's. */
  summary?: SummaryRow[];
  /** The title of an earlier section this one takes over (it and its summary rows go). */
  replaces?: string;
}

export const machine = () =>
  `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });

export interface Proc {
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

async function waitHealthy(url: string, child: ChildProcess, out: () => string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited early:\n${out()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`not healthy in time:\n${out()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function startProcess(script: string, env: Record<string, string>, healthPath: string, cleanup?: () => void) {
  return (async (): Promise<Proc> => {
    const port = await freePort();
    let out = '';
    // A built bundle runs as `npm start` runs it; a TypeScript source under tsx.
    const child = spawn(process.execPath, script.endsWith('.js') ? [script] : ['--import', 'tsx', script], {
      cwd: join(repoRoot, 'apps', 'server'),
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const url = `http://127.0.0.1:${port}`;
    await waitHealthy(url + healthPath, child, () => out);
    return {
      url,
      child,
      stop: async () => {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          await new Promise((r) => child.once('exit', r));
        }
        cleanup?.();
      },
    };
  })();
}

export const ADMIN_PASSWORD = 'Bench#2026';

let serverBuilt: Promise<string> | undefined;

/** The server bundle `npm start` runs (apps/server/dist/server.js), built from the sources once per bench run. */
function builtServer(): Promise<string> {
  serverBuilt ??= (async () => {
    const { buildServer, SERVER_OUT } = (await import(join(repoRoot, 'scripts', 'build-server.mjs'))) as {
      buildServer: () => Promise<void>;
      SERVER_OUT: string;
    };
    await buildServer();
    return SERVER_OUT;
  })();
  return serverBuilt;
}

/**
 * The real server, on a temporary SQLite database unless DATABASE_URL is given. `built`: run it
 * as `npm start` does, the esbuild bundle (built here from the current sources), instead of the
 * sources under tsx, whose transform (names kept on every function, source maps) costs a short
 * call measurable CPU that the product does not spend (decision 0076).
 */
export async function startApp(env: Record<string, string> = {}, { built = false }: { built?: boolean } = {}) {
  const script = built ? await builtServer() : join(repoRoot, 'apps', 'server', 'src', 'server.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'clearplay-bench-'));
  return startProcess(
    script,
    // Retention off: benches seed a year of rows, which must stay as seeded while they measure.
    {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      INIT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      DEMO: '1',
      // The benches sign in with the password alone, also where DEMO is 0 (decision 0091).
      TOTP_REQUIRED: 'none',
      RETENTION_DAYS: '0',
      RETENTION_UPLOAD_HOURS: '0',
      ...env,
    },
    '/api/health',
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
}

/** Signs the first-start super admin in to a started app over HTTP; the `authorization` header value. */
export async function superAdminBearer(app: Proc): Promise<string> {
  const res = await fetch(`${app.url}/api/admin/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'superadmin', password: ADMIN_PASSWORD }),
  });
  const body = (await res.json()) as { status: number; msg: string; data: { token: string } };
  if (body.status !== 200) throw new Error(`login: ${body.msg}`);
  return `Bearer ${body.data.token}`;
}

/** A bare Fastify process answering the envelope: the floor any handler of ours stands on. */
export function startBare(env: Record<string, string> = {}) {
  return startProcess(join(repoRoot, 'bench', 'bare-server.ts'), env, '/noop');
}

/** A bare Fastify process whose login is one argon2id verify: the floor of a password login. */
export function startLoginBaseline() {
  return startProcess(join(repoRoot, 'bench', 'login-baseline-server.ts'), {}, '/info');
}

/**
 * The upload floors (bench/upload-floor-server.ts): bare node:http taking 4 MB parts onto disk,
 * with MD5 + SHA-1 on worker threads when `hash`, else writing only.
 */
export function startUploadFloor(hash: boolean) {
  return startProcess(join(repoRoot, 'bench', 'upload-floor-server.ts'), { FLOOR_HASH: hash ? '1' : '0' }, '/health');
}

/** Reference: bare Fastify doing one Kysely key lookup on SQLite (bench/lookup-server.ts); token `lookup-token`. */
export function startLookup() {
  return startProcess(join(repoRoot, 'bench', 'lookup-server.ts'), {}, '/health');
}

/**
 * CPU time (user + system, ms) a child process has used so far, from Linux /proc (clock ticks
 * of 10 ms). On a shared machine the CPU a server spends per request moves far less with other
 * load than its throughput does.
 */
export function cpuMsOf(child: ChildProcess): number {
  return procStat(child.pid ?? 0).ownMs;
}

/** A process's parent and CPU time from /proc (ms): its own, and that of its children it has waited for. */
export function procStat(pid: number): { ppid: number; ownMs: number; childrenMs: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After "pid (comm) ": state is field 3, ppid 4; utime, stime, cutime, cstime are fields 14–17 (in 10 ms ticks).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    ppid: Number(fields[1]),
    ownMs: (Number(fields[11]) + Number(fields[12])) * 10,
    childrenMs: (Number(fields[13]) + Number(fields[14])) * 10,
  };
}

export interface Load {
  /** Requests answered in the run. */
  total: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function load(opts: autocannon.Options): Promise<Load> {
  const r = await autocannon({ connections: 8, duration: 5, ...opts });
  return {
    total: r.requests.total,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(3));

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The machine's busy CPU seconds so far, every core (Linux's /proc/stat: all ticks but idle and iowait, 100 a second). */
export function busyCpuSeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (fields.reduce((a, b) => a + b, 0) - fields[3]! - (fields[4] ?? 0)) / 100;
}

/** The p-th percentile of ascending times (the value at or above p % of them); 0 for none. */
export const pct = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** p50 and p95 of a set of times (ms), in any order. */
export function percentiles(times: readonly number[]): { p50: number; p95: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: pct(sorted, 50), p95: pct(sorted, 95) };
}

/**
 * Times a call of ours beside its baseline, one after the other, `rounds` times after `warmup`
 * untimed rounds (round i gets i, so the two sides see the same inputs): the loop every
 * "server beside raw SQL" figure is measured with. `check` reads the call's answer of each timed
 * round outside either timing (it throws on a wrong answer). Each side's p50 and p95, in ms, and
 * the server side's CPU time per call (this process's user + system, ms): on a loaded machine the
 * percentiles grow with the other processes' load, the CPU time does not.
 */
export async function timeBeside<R>(
  rounds: number,
  warmup: number,
  server: (i: number) => Promise<R>,
  baseline: (i: number) => Promise<unknown>,
  check?: (answer: R, i: number) => void,
): Promise<{ server: { p50: number; p95: number; cpuMs: number }; baseline: { p50: number; p95: number } }> {
  for (let i = 0; i < warmup; i++) {
    await server(i);
    await baseline(i);
  }
  const ours: number[] = [];
  const theirs: number[] = [];
  let cpuMicros = 0;
  for (let i = 0; i < rounds; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const answer = await server(i);
    ours.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuMicros += c.user + c.system;
    check?.(answer, i);
    const t1 = performance.now();
    await baseline(i);
    theirs.push(performance.now() - t1);
  }
  return { server: { ...percentiles(ours), cpuMs: cpuMicros / Math.max(1, rounds) / 1000 }, baseline: percentiles(theirs) };
}
