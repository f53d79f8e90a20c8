/**
 * The real server process (src/server.ts under tsx, as `npm run dev` runs it): request ids in
 * answers and logs, and a bounded shutdown with a slow client holding a connection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './config.ts';

const PASSWORD = 'Admin12345';
let child: ChildProcess;
let port: number;
let dataDir: string;
let output = '';
let exited: Promise<{ code: number | null; at: number }>;

const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });

/** Resolves with the socket's text once `pattern` appears in it. */
const receive = (socket: Socket, pattern: RegExp) =>
  new Promise<string>((done, fail) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) {
        socket.off('data', onData);
        done(text);
      }
    };
    socket.on('data', onData);
    socket.once('error', fail);
    socket.once('close', () => (pattern.test(text) ? done(text) : fail(new Error(`closed before ${String(pattern)}; got: ${text}`))));
  });

const open = () =>
  new Promise<Socket>((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => done(socket));
    socket.once('error', fail);
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'clearplay-process-'));
  port = await freePort();
  child = spawn(resolve(REPO_ROOT, 'node_modules/.bin/tsx'), [resolve(import.meta.dirname, 'server.ts')], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      INIT_ADMIN_PASSWORD: PASSWORD,
      // A sign-in answers a session straight away (this file is about shutting down, not two-step verification).
      TOTP_REQUIRED: 'none',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  exited = new Promise((done) => child.once('exit', (code) => done({ code, at: Date.now() })));
  const deadline = Date.now() + 30_000;
  while ((await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status !== 200) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 40_000);

afterAll(() => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('request ids', () => {
  it('honours a well-formed X-Request-Id, echoes it, and logs it', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { 'x-request-id': 'edge-7f3a.42' } });
    expect(res.headers.get('x-request-id')).toBe('edge-7f3a.42');
    await expect.poll(() => output, { timeout: 5000 }).toContain('"reqId":"edge-7f3a.42"');
    // Every line the request writes carries it (its logger is made lazily, lib/request-log.ts).
    await expect.poll(() => output.split('\n').filter((line) => line.includes('"reqId":"edge-7f3a.42"')).length, { timeout: 5000 }).toBe(2);
    expect(output).toMatch(/"reqId":"edge-7f3a\.42"[^\n]*"msg":"incoming request"/);
    expect(output).toMatch(/"reqId":"edge-7f3a\.42"[^\n]*"msg":"request completed"/);
  });

  it('gives every other request a fresh UUID, also on errors', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const ids = new Set<string>();
    for (const header of [undefined, 'x'.repeat(129), 'has space', '"quoted"']) {
      const res = await fetch(`http://127.0.0.1:${port}/api/admin/user/info`, {
        headers: header === undefined ? {} : { 'x-request-id': header },
      });
      expect(res.status).toBe(401);
      const id = res.headers.get('x-request-id') ?? '';
      expect(id).toMatch(uuid);
      ids.add(id);
    }
    expect(ids.size).toBe(4);
  });
});

describe('SIGTERM', () => {
  it('stops accepting, finishes the request in flight, cuts a stalled client and exits 0 within 10 s', async () => {
    // A slow client: half a request line's headers, then nothing.
    const stalled = await open();
    stalled.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const stalledClosed = new Promise((done) => stalled.once('close', done));

    // A request in flight: its headers are in (the server has answered 100 Continue), its body not yet.
    const body = JSON.stringify({ username: 'superadmin', password: PASSWORD });
    const inFlight = await open();
    inFlight.write(
      `POST /api/admin/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await receive(inFlight, /100 Continue\r\n\r\n/);
    const answered = receive(inFlight, /\r\n\r\n[\s\S]*"token"/);

    const signalled = Date.now();
    child.kill('SIGTERM');
    // No new connections once the listener is closed.
    await expect
      .poll(
        () =>
          open().then(
            (s) => (s.destroy(), 'accepted'),
            (e: NodeJS.ErrnoException) => e.code,
          ),
        { timeout: 5000, interval: 50 },
      )
      .toBe('ECONNREFUSED');

    inFlight.write(body);
    const answer = await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /m);
    expect(answer).toMatch(/"status":200/);

    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(10_000);
    await stalledClosed;
    expect(output).toContain('shutting down');
  }, 30_000);
});
