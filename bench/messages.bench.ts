// The message box at scale: 1,000,000 messages across 10,000 users, the list (a tab,
// a tab by read state, the full page) and the unread poll (200 and 304) answered at the server
// (buildApp + app.inject: routing, session check, validation, service, serialization) beside
// the same compiled SQL run straight on the driver in the same run, plus the query plans.
import { sql, type CompiledQuery } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { type Db } from '../apps/server/src/db/index.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { DAY_MS } from '../apps/server/src/lib/time.ts';
import * as repo from '../apps/server/src/modules/messages/messages.repository.ts';
import { indexDefs } from './orders-seed.ts';
import { fmt, timeBeside, type Section } from './lib.ts';
import { appOn, firstStart, onEachTarget, type Target } from './targets.ts';

const USERS = Number(process.env.BENCH_MESSAGE_USERS ?? 10_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const READERS = 5;
/**
 * Decision 0063: the unread counts are read from an index range of the caller's unread rows, so
 * their cost grows with that user's unread count; one reader who never reads has this many.
 */
const HEAVY_UNREAD = Number(process.env.BENCH_HEAVY_UNREAD ?? 10_000);
const REQUESTS = 200;
const PASSWORD = 'Bench#user1';
const NOW = Date.now();
const SPAN_MS = 180 * DAY_MS;
const KINDS = ['message', 'message', 'message', 'notice', 'todo'] as const;
const EVENTS = { message: 'order.created', notice: 'announcement', todo: 'todo.suspicious' } as const;

function rng(seedValue: number) {
  let s = seedValue >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function seedUsers(db: Db): Promise<number[]> {
  const role = await db.selectFrom('roles').select('id').where('name', '=', 'shop').executeTakeFirstOrThrow();
  const hash = await hashPassword(PASSWORD);
  for (let b = 0; b < USERS; b += 1000) {
    const rows = [];
    for (let i = b; i < Math.min(USERS, b + 1000); i++)
      rows.push({
        username: `mshop${String(i).padStart(6, '0')}`,
        passwordHash: hash,
        nickname: `店铺${i}`,
        roleId: role.id,
        wechat: '',
        phone: '',
        avatar: '',
        ifPublic: 0,
        status: 1,
        defaultPrice: 0,
        defaultPriceCheat: 0,
        defaultPriceSuspect: 0,
        defaultPriceNotPass: 0,
        serviceEndAt: null,
        loginAt: null,
        passwordChangedAt: NOW,
        createdAt: NOW,
        updatedAt: NOW,
      });
    await db.insertInto('users').values(rows).execute();
  }
  return (await db.selectFrom('users').select('id').where('username', 'like', 'mshop%').orderBy('id').execute()).map((u) => u.id);
}

async function seedMessages(db: Db, userIds: number[]): Promise<void> {
  const random = rng(14);
  const BATCH = 1000;
  for (let from = 0; from < MESSAGES; from += BATCH * 20) {
    await db.transaction().execute(async (trx) => {
      for (let b = from; b < Math.min(MESSAGES, from + BATCH * 20); b += BATCH) {
        const rows = [];
        for (let i = b; i < Math.min(MESSAGES, b + BATCH); i++) {
          const kind = KINDS[Math.floor(random() * KINDS.length)] ?? 'message';
          const createdAt = NOW - SPAN_MS + Math.floor((i / MESSAGES) * SPAN_MS);
          // Older items are mostly read; the last weeks' mostly not.
          const read = random() < (i / MESSAGES < 0.9 ? 0.9 : 0.2);
          rows.push({
            userId: userIds[Math.floor(random() * userIds.length)] ?? 1,
            kind,
            event: EVENTS[kind],
            params:
              kind === 'notice' ? '{"title":"Maintenance"}' : `{"code":"C${i}","result":1,"amountFen":3000,"game":"CS2","wechat":"wx"}`,
            targetType: kind === 'notice' ? 'announcement' : 'order',
            targetId: i,
            isRead: read ? 1 : 0,
            readAt: read ? createdAt + 3_600_000 : null,
            doneAt: null,
            dedupeKey: kind === 'todo' ? `order:${i}:suspicious` : null,
            createdAt,
          });
        }
        await trx.insertInto('messages').values(rows).execute();
      }
    });
  }
}

/** HEAVY_UNREAD unread messages and todos for one user (a staff member who never opens the box). */
async function seedHeavyReader(db: Db, userId: number): Promise<void> {
  for (let b = 0; b < HEAVY_UNREAD; b += 1000) {
    const rows = [];
    for (let i = b; i < Math.min(HEAVY_UNREAD, b + 1000); i++) {
      const kind: 'todo' | 'message' = i % 4 === 0 ? 'todo' : 'message';
      rows.push({
        userId,
        kind,
        event: EVENTS[kind],
        params: `{"code":"H${i}","result":3,"amountFen":3000,"game":"CS2","wechat":"wx"}`,
        targetType: 'order',
        targetId: MESSAGES + i,
        isRead: 0,
        readAt: null,
        doneAt: null,
        dedupeKey: kind === 'todo' ? `order:h${i}:suspicious` : null,
        createdAt: NOW - SPAN_MS + Math.floor((i / HEAVY_UNREAD) * SPAN_MS),
      });
    }
    await db.insertInto('messages').values(rows).execute();
  }
}

async function withoutIndexes(db: Db, dialect: Target['name'], load: () => Promise<void>): Promise<void> {
  const defs = (await indexDefs(db, dialect, 'messages')).filter((d) => !/unique/i.test(d.def));
  for (const d of defs) await sql`drop index ${sql.id(d.name)}`.execute(db);
  await load();
  for (const d of defs) await sql.raw(d.def).execute(db);
}

interface Case {
  name: string;
  path: string;
  query: (i: number) => Record<string, string>;
  raw: (db: Db, userId: number, q: Record<string, string>) => CompiledQuery[];
  etag?: boolean;
  /** Every request as the reader with HEAVY_UNREAD unread items. */
  heavy?: boolean;
}

const filterOf = (userId: number, q: Record<string, string>): repo.MessageFilter => ({
  userId,
  kind: q.type as repo.MessageFilter['kind'],
  isRead: q.read === 'unread' ? 0 : q.read === 'read' ? 1 : undefined,
});
const listRaw = (db: Db, userId: number, q: Record<string, string>) => {
  const f = filterOf(userId, q);
  const page = Number(q.page ?? 1);
  return [
    repo.listPageQuery(db, f, (page - 1) * 10, 10).compile(),
    repo.countQuery(db, f).compile(),
    repo.unreadQuery(db, userId).compile(),
  ];
};
const CASES: Case[] = [
  {
    name: 'tab "message", page 1–3',
    path: '/api/admin/message/list',
    query: (i) => ({ type: 'message', page: String((i % 3) + 1) }),
    raw: listRaw,
  },
  { name: 'tab "todo", unread', path: '/api/admin/message/list', query: () => ({ type: 'todo', read: 'unread' }), raw: listRaw },
  { name: 'full page, every kind, read', path: '/api/admin/message/list', query: () => ({ read: 'read' }), raw: listRaw },
  { name: 'unread poll (200)', path: '/api/admin/message/unread', query: () => ({}), raw: (db, u) => [repo.unreadQuery(db, u).compile()] },
  {
    name: 'unread poll (304, If-None-Match)',
    path: '/api/admin/message/unread',
    query: () => ({}),
    raw: (db, u) => [repo.unreadQuery(db, u).compile()],
    etag: true,
  },
  {
    name: `unread poll (200), a user with ${fmt(HEAVY_UNREAD)} unread`,
    path: '/api/admin/message/unread',
    query: () => ({}),
    raw: (db, u) => [repo.unreadQuery(db, u).compile()],
    heavy: true,
  },
  {
    name: `tab "todo", unread, a user with ${fmt(HEAVY_UNREAD)} unread`,
    path: '/api/admin/message/list',
    query: () => ({ type: 'todo', read: 'unread' }),
    raw: listRaw,
    heavy: true,
  },
];

async function runTarget(target: Target): Promise<Section> {
  const { config, db } = appOn(target);
  const timings: string[] = [];
  try {
    await firstStart(db);
    let t = performance.now();
    const userIds = await seedUsers(db);
    const heavyId = userIds[1] ?? 1;
    await withoutIndexes(db, target.name, async () => {
      await seedMessages(db, userIds);
      await seedHeavyReader(db, heavyId);
    });
    timings.push(`${fmt(MESSAGES)} messages for ${fmt(USERS)} users in ${fmt((performance.now() - t) / 1000, 1)} s`);
    t = performance.now();
    if (target.name === 'SQLite') {
      await sql`analyze`.execute(db);
      await sql`pragma wal_checkpoint(truncate)`.execute(db);
    } else {
      await sql`vacuum analyze`.execute(db);
      await sql`checkpoint`.execute(db);
    }
    timings.push(`statistics and checkpoint in ${fmt((performance.now() - t) / 1000, 1)} s`);
    const app = await buildApp({ config, db, logger: false });
    try {
      const readers: { id: number; auth: string; etag: string }[] = [];
      for (let r = 0; r < READERS; r++) {
        const id = userIds[Math.floor((r * userIds.length) / READERS)] ?? 1;
        const username = `mshop${String(userIds.indexOf(id)).padStart(6, '0')}`;
        const login = await app.inject({ method: 'POST', url: '/api/admin/user/login', payload: { username, password: PASSWORD } });
        const auth = `Bearer ${login.json<{ data: { token: string } }>().data.token}`;
        const poll = await app.inject({ method: 'GET', url: '/api/admin/message/unread', headers: { authorization: auth } });
        readers.push({ id, auth, etag: String(poll.headers.etag) });
      }
      const heavyLogin = await app.inject({
        method: 'POST',
        url: '/api/admin/user/login',
        payload: { username: 'mshop000001', password: PASSWORD },
      });
      const heavy = { id: heavyId, auth: `Bearer ${heavyLogin.json<{ data: { token: string } }>().data.token}`, etag: '' };
      const rows: string[] = [];
      const plans: string[] = [];
      for (const c of CASES) {
        let answered = 0;
        const readerOf = (i: number) => (c.heavy === true ? heavy : readers[i % READERS]!);
        const { server, baseline: raw } = await timeBeside(
          REQUESTS,
          10,
          (i) => {
            const reader = readerOf(i);
            const headers: Record<string, string> = { authorization: reader.auth };
            if (c.etag) headers['if-none-match'] = reader.etag;
            return app.inject({ method: 'GET', url: c.path, query: c.query(i), headers });
          },
          async (i) => {
            for (const query of c.raw(db, readerOf(i).id, c.query(i))) await target.raw.run(query);
          },
          (res) => {
            if (res.statusCode !== (c.etag ? 304 : 200)) throw new Error(`${c.name}: ${res.statusCode} ${res.body}`);
            answered = c.etag ? 0 : Number(res.json<{ data: { total?: number; message?: number } }>().data.total ?? 0);
          },
        );
        rows.push(
          `| ${c.name} | ${fmt(answered)} | ${fmt(server.p50, 2)} | **${fmt(server.p95, 2)}** | ${fmt(raw.p50, 2)} | ${fmt(raw.p95, 2)} | ${fmt(server.cpuMs, 2)} |`,
        );
        const explained: string[] = [];
        for (const query of c.raw(db, c.heavy === true ? heavy.id : readers[0]!.id, c.query(0)))
          explained.push(...(await target.raw.explain(query)).map((l) => `  ${l}`), '  --');
        plans.push(`${c.name}:\n${explained.slice(0, -1).join('\n')}`);
      }
      const body = `Seeded: ${timings.join('; ')}.

| case (${fmt(MESSAGES)} messages, ${fmt(USERS)} users) | total | server p50 ms | server p95 ms | raw SQL p50 ms | raw SQL p95 ms | server CPU ms / request |
|---|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

${REQUESTS} requests per case, one at a time, rotating over ${READERS} users (about ${fmt(MESSAGES / USERS)} messages each),
page size 10. "server" = \`app.inject\` on the real app (routing, session look-up, validation,
service: page + count + unread counts, rendering in the reader's language, serialization);
"raw SQL" = the same compiled queries run one after the other straight on the driver, in the same run. "total" is the last answer's.

<details><summary>Query plans (${target.name})</summary>

\`\`\`
${plans.join('\n\n')}
\`\`\`

</details>`;
      return { title: `Message box at scale (${target.name})`, body };
    } finally {
      await app.close();
    }
  } finally {
    await target.raw.close();
    await db.destroy();
    await target.drop();
  }
}

export const run = (): Promise<Section[]> => onEachTarget('messages', runTarget);
