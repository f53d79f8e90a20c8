// A reference, not a baseline: bare Fastify answering a bearer token with one Kysely key lookup
// on a better-sqlite3 file in WAL mode (sha-256 of the token, `select … where token_hash = ?` on
// a unique index), what the issue quotes as reaching about 0.4× the bare handler. No auth
// rules, no headers, no logger: the floor of "one database read per call" with the same stack.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { Kysely, SqliteDialect } from 'kysely';

interface Db {
  sessions: { id: number; token_hash: string; user_id: number; expires_at: number };
}

const dir = mkdtempSync(join(tmpdir(), 'clearplay-bench-lookup-'));
const sqlite = new Database(join(dir, 'lookup.db'));
sqlite.pragma('journal_mode = WAL');
sqlite.exec(
  'create table sessions (id integer primary key, token_hash text not null unique, user_id integer not null, expires_at integer not null)',
);
const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const insert = sqlite.prepare('insert into sessions (token_hash, user_id, expires_at) values (?, ?, ?)');
for (let i = 0; i < 1000; i++) insert.run(hash(randomBytes(16).toString('hex')), i, Date.now() + 3600_000);
insert.run(hash('lookup-token'), 1, Date.now() + 3600_000);
const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: sqlite }) });

const app = Fastify({ logger: false });
app.get('/health', async () => ({ ok: true }));
app.get('/lookup', async (request, reply) => {
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  const row = await db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'expires_at'])
    .where('token_hash', '=', hash(token))
    .executeTakeFirst();
  if (row === undefined) return reply.code(401).send({ status: 401, msg: 'unauthorized', data: null });
  return { status: 200, msg: 'ok', data: { expiresAt: new Date(row.expires_at).toISOString() } };
});
await app.listen({ port: Number(process.env.PORT ?? 3997), host: '127.0.0.1' });
const stop = () =>
  void app
    .close()
    .then(() => db.destroy())
    .then(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
