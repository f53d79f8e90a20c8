// Sign-in cost: login + info round trips, and an authenticated no-op call, each beside a bare
// Fastify handler doing the same number of requests in the same run.
import type autocannon from 'autocannon';
import { ADMIN_PASSWORD, fmt, load, ratio, startApp, startBare, type Section } from './lib.ts';

const json = { 'content-type': 'application/json' };

function roundTrip(loginPath: string, infoPath: string, password: string): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path: loginPath,
      headers: json,
      body: JSON.stringify({ username: 'superadmin', password }),
      onResponse: (_status, body, context) => {
        try {
          context.token = (JSON.parse(body) as { data?: { token?: string } }).data?.token ?? '';
        } catch {
          context.token = '';
        }
      },
    },
    {
      method: 'GET',
      path: infoPath,
      setupRequest: (req, context) => ({
        ...req,
        headers: { ...req.headers, authorization: `Bearer ${String(context.token)}` },
      }),
    },
  ];
}

export async function run(): Promise<Section[]> {
  const app = await startApp();
  const bare = await startBare();
  try {
    const loginRes = await fetch(`${app.url}/api/admin/user/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: 'superadmin', password: ADMIN_PASSWORD }),
    });
    const token = ((await loginRes.json()) as { data: { token: string } }).data.token;
    const auth = { authorization: `Bearer ${token}` };

    // warm both up
    await load({ url: bare.url + '/noop', duration: 1 });
    await load({ url: app.url + '/api/admin/user/session', headers: auth, duration: 1 });

    const bareRound = await load({ url: bare.url, requests: roundTrip('/noop', '/noop', ''), duration: 5 });
    const appRound = await load({ url: app.url, requests: roundTrip('/api/admin/user/login', '/api/admin/user/info', ADMIN_PASSWORD), duration: 5 });
    const bareNoop = await load({ url: bare.url + '/noop', duration: 5 });
    const appNoop = await load({ url: app.url + '/api/admin/user/session', headers: auth, duration: 5 });

    const rows = [
      ['login + info round trips /s', appRound.rps / 2, bareRound.rps / 2, appRound.errors, appRound.p99],
      ['authenticated no-op call /s (`GET /api/admin/user/session`)', appNoop.rps, bareNoop.rps, appNoop.errors, appNoop.p99],
    ] as const;
    const body = `| figure | ClearPlay | bare Fastify handler | ratio | errors | p99 ms (app) |
|---|---:|---:|---:|---:|---:|
${rows.map(([name, a, b, e, p]) => `| ${name} | ${fmt(a)} | ${fmt(b)} | **${ratio(a, b)}** | ${e} | ${p} |`).join('\n')}

Real HTTP on loopback, autocannon with 8 connections for 5 s each, server on SQLite. A login
verifies an argon2id hash (memory-hard by design, 19 MiB, 2 passes), writes a session and a login
record; the no-op call looks the session up by its token hash and the user's role, then answers.
The bare handler answers the same envelope with no database and no auth.`;
    return [{ title: 'Sign-in and authenticated calls', body }];
  } finally {
    await app.stop();
    await bare.stop();
  }
}
