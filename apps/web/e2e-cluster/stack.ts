// The two-instance stack of the cluster journeys (decision 0103): a fresh PostgreSQL database on
// the server TEST_PG_URL names, two ClearPlay processes set up as docs/deploy.md "Several
// instances" says (INSTANCES=multi, TRUST_PROXY, the same keys, one shared UPLOADS_DIR, each its
// own DATA_DIR), and Debian's nginx in front of them running deploy/nginx/clearplay.conf with
// only the addresses, ports and certificate paths replaced. Everything lives in one temporary
// folder; `stop` ends the processes, drops the database and removes the folder.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ADMIN_PASSWORD, endProcess, repoRoot, spawnServer } from '../e2e/harness.ts';

export const NGINX_CONF = join(repoRoot, 'deploy', 'nginx', 'clearplay.conf');

/** What the journeys get (through process.env.CLUSTER, as JSON). */
export interface ClusterInfo {
  /** nginx's HTTPS origin: where the browser goes. */
  url: string;
  /** The instances, each with its own origin (plain HTTP, bypassing nginx) and the address nginx names it by. */
  instances: { name: 'a' | 'b'; url: string; upstream: string; pid: number }[];
  /** The shared database. */
  databaseUrl: string;
  /** The self-signed certificate nginx serves (NODE_EXTRA_CA_CERTS of the journeys' processes). */
  cert: string;
}

/** The literal values of deploy/nginx/clearplay.conf that the stack replaces: each must be there. */
const PLACEHOLDERS = {
  instanceA: 'server 10.0.0.11:3000',
  instanceB: 'server 10.0.0.12:3000',
  http: 'listen 80;',
  https: 'listen 443 ssl http2;',
  cert: '/etc/ssl/clearplay/fullchain.pem',
  key: '/etc/ssl/clearplay/privkey.pem',
} as const;

/** deploy/nginx/clearplay.conf with the given values in place of the example ones; throws when one is missing. */
export function renderNginxConf(
  source: string,
  values: { instanceA: string; instanceB: string; httpPort: number; httpsPort: number; cert: string; key: string },
): string {
  const replacements: [string, string][] = [
    [PLACEHOLDERS.instanceA, `server ${values.instanceA}`],
    [PLACEHOLDERS.instanceB, `server ${values.instanceB}`],
    [PLACEHOLDERS.http, `listen 127.0.0.1:${values.httpPort};`],
    [PLACEHOLDERS.https, `listen 127.0.0.1:${values.httpsPort} ssl http2;`],
    [PLACEHOLDERS.cert, values.cert],
    [PLACEHOLDERS.key, values.key],
  ];
  let out = source;
  for (const [from, to] of replacements) {
    if (!out.includes(from)) throw new Error(`deploy/nginx/clearplay.conf no longer holds "${from}": update apps/web/e2e-cluster/stack.ts`);
    out = out.split(from).join(to);
  }
  return out;
}

const freePort = (base?: number) =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(base ?? 0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });

/** Four ports: from CLUSTER_PORT_BASE on (base..base+3) when set, else any free ones. */
async function ports(): Promise<number[]> {
  const base = process.env.CLUSTER_PORT_BASE ? Number(process.env.CLUSTER_PORT_BASE) : undefined;
  return Promise.all([0, 1, 2, 3].map((i) => freePort(base === undefined ? undefined : base + i)));
}

/** Debian's nginx: on PATH, or in /usr/sbin (not on a non-root PATH). */
function nginxBinary(): string {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('nginx is not installed: run scripts/ensure-system-deps.sh as root (or apt-get install nginx)');
  }
}

const secret = () => randomBytes(32).toString('base64url');

/** A self-signed certificate for 127.0.0.1 and localhost, valid a day. */
function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'fullchain.pem');
  const key = join(dir, 'privkey.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  chmodSync(key, 0o600);
  return { cert, key };
}

/** TEST_PG_URL with another database name. */
function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function onServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The status of a GET over HTTPS, trusting `ca` (this process started before the certificate existed). */
const statusOver = (url: string, ca: Buffer) =>
  new Promise<number>((resolve, reject) => {
    const req = httpsRequest(url, { ca }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });

export interface Stack {
  info: ClusterInfo;
  stop(): Promise<void>;
}

/** Starts the stack; on any failure, whatever had started is stopped again. */
export async function startStack(log: (line: string) => void = () => undefined): Promise<Stack> {
  const serverUrl = process.env.TEST_PG_URL;
  if (!serverUrl)
    throw new Error('The cluster journeys need PostgreSQL: set TEST_PG_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
  const dir = mkdtempSync(join(tmpdir(), 'clearplay-cluster-'));
  // nginx's workers (user nobody when nginx starts as root) write their temp files below it.
  chmodSync(dir, 0o755);
  const dbName = `clearplay_cluster_${Date.now()}_${process.pid}`;
  const databaseUrl = withDatabase(serverUrl, dbName);
  const children: ChildProcess[] = [];
  let dbCreated = false;
  let output = '';
  const collect = (prefix: string) => (text: string) => {
    output += text
      .split('\n')
      .filter(Boolean)
      .map((line) => `[${prefix}] ${line}\n`)
      .join('');
  };

  const stop = async () => {
    await Promise.all(children.reverse().map((child) => endProcess(child)));
    if (dbCreated) {
      await onServer(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)).catch((error: unknown) =>
        log(`could not drop ${dbName}: ${String(error)}`),
      );
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await onServer(serverUrl, (c) => c.query(`CREATE DATABASE ${dbName}`));
    dbCreated = true;
    const [portA, portB, httpPort, httpsPort] = await ports();
    const uploadsDir = join(dir, 'shared-uploads');
    mkdirSync(uploadsDir);
    // docs/deploy.md "Several instances": set alike on every instance.
    const shared: Record<string, string> = {
      INSTANCES: 'multi',
      TRUST_PROXY: 'true',
      DATABASE_URL: databaseUrl,
      UPLOAD_ACCESS_KEY: `cluster-${randomBytes(6).toString('hex')}`,
      UPLOAD_SECRET_KEY: secret(),
      EVIDENCE_URL_SECRET: secret(),
      TOTP_SECRET_KEY: secret(),
      UPLOADS_DIR: uploadsDir,
      DB_POOL_SIZE: '5',
      // The shortest interval the retention job takes: one run a minute, across both.
      RETENTION_INTERVAL_MINUTES: '1',
      INIT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      DEMO: '1',
      LOG_LEVEL: 'warn',
    };
    const dataA = join(dir, 'data-a');
    const dataB = join(dir, 'data-b');
    mkdirSync(dataA);
    mkdirSync(dataB);
    // Both at once on the fresh database, as an orchestrator starts them: migrations and the
    // first-start seed must cope with each other.
    const started = Date.now();
    const [a, b] = await Promise.all([spawnServer(portA!, dataA, shared, collect('a')), spawnServer(portB!, dataB, shared, collect('b'))]);
    children.push(a, b);
    log(`two instances up in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const { cert, key } = selfSignedCertificate(dir);
    const nginxDir = join(dir, 'nginx');
    mkdirSync(nginxDir);
    chmodSync(nginxDir, 0o755);
    const site = renderNginxConf(readFileSync(NGINX_CONF, 'utf8'), {
      instanceA: `127.0.0.1:${portA}`,
      instanceB: `127.0.0.1:${portB}`,
      httpPort: httpPort!,
      httpsPort: httpsPort!,
      cert,
      key,
    });
    writeFileSync(join(nginxDir, 'clearplay.conf'), site);
    // The main configuration a distribution ships (/etc/nginx/nginx.conf), reduced to what
    // this run needs: its own pid, logs and temp folders, so nothing of the system's is used.
    writeFileSync(
      join(nginxDir, 'nginx.conf'),
      [
        'worker_processes 2;',
        `pid ${join(nginxDir, 'nginx.pid')};`,
        `error_log ${join(nginxDir, 'error.log')} warn;`,
        'events { worker_connections 512; }',
        'http {',
        `  log_format upstream '$request_method $uri $status upstream=$upstream_addr';`,
        `  access_log ${join(nginxDir, 'access.log')} upstream;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(nginxDir, `${t}_temp`)};`),
        `  include ${join(nginxDir, 'clearplay.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    const nginx = spawn(
      nginxBinary(),
      ['-p', nginxDir, '-c', join(nginxDir, 'nginx.conf'), '-e', join(nginxDir, 'error.log'), '-g', 'daemon off;'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(nginx);
    nginx.stdout.on('data', (d: Buffer) => collect('nginx')(d.toString()));
    nginx.stderr.on('data', (d: Buffer) => collect('nginx')(d.toString()));
    const url = `https://127.0.0.1:${httpsPort}`;
    const errorLog = () => {
      const file = join(nginxDir, 'error.log');
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    };
    await waitFor(
      'nginx',
      async () => {
        if (nginx.exitCode !== null) throw new Error('nginx exited');
        return (await statusOver(`${url}/api/health`, readFileSync(cert))) === 200;
      },
      15_000,
      () => `${output}\n${errorLog()}`,
    );
    return {
      info: {
        url,
        instances: [
          { name: 'a', url: `http://127.0.0.1:${portA}`, upstream: `127.0.0.1:${portA}`, pid: a.pid! },
          { name: 'b', url: `http://127.0.0.1:${portB}`, upstream: `127.0.0.1:${portB}`, pid: b.pid! },
        ],
        databaseUrl,
        cert,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
