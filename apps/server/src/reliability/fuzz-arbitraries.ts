/**
 * Bad requests generated from an endpoint's contract schemas ("Bad input"; decision
 * 0102). For every declaration, `generatorsOf` answers the kinds of bad request it can be sent
 * (its params, query and body mutated field by field; malformed JSON, content types the API
 * does not read, bodies over the limit, credentials that are no session; a multipart form cut or
 * misnamed), each a fast-check arbitrary of requests that are **invalid by construction**:
 * a mutated typed field is kept only when TypeBox's `Value.Check` refuses the request as the
 * server would see it (query and path text converted to the schema's types first, as Ajv does).
 *
 * Two kinds are not schema-invalid and say so (`expect`):
 * - 'read': hostile text (SQL, HTML, unicode edge cases, traversal) in a free-text field of a
 *   call that changes nothing (a GET without an operation-log rule): it may be answered 200.
 * - 'rule': traversal in a key, a file name or a dictionary code of a call that changes data,
 *   the rest of the body valid: the schema lets it through, the product's own rule must refuse it.
 */
import { pathParamNames, type Endpoint, type EndpointSchemas } from '@clearplay/contract';
import fc from 'fast-check';
import { Value } from 'typebox/value';
import type { TSchema } from 'typebox';
import { parse as parseQuery } from 'node:querystring';

/** A schema as JSON (TypeBox's values are plain JSON Schema objects). */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  format?: string;
  additionalProperties?: boolean;
}

const asJson = (schema: TSchema): JsonSchema => schema as unknown as JsonSchema;
const check = (schema: TSchema, value: unknown): boolean => Value.Check(schema, value);

/** A token written into a JSON body as it is (NaN, Infinity): the body is then not JSON. */
export class RawToken {
  constructor(readonly text: string) {}
  toJSON(): string {
    return `\u0000RAW:${this.text}\u0000`;
  }
}

// ── Hostile text ──────────────────────────────────────────────────────────────────────────

export const MB = 1024 * 1024;
/** Over every body limit of the API (1 MiB signed in, 16 KiB public). */
export const ONE_MB_STRING = 'x'.repeat(MB + 1024);

export const SQL_INJECTION = [
  "' OR '1'='1",
  "1' OR 1=1 --",
  '1; DROP TABLE users; --',
  "admin'--",
  "' UNION SELECT password_hash, 1 FROM users --",
  "%' AND SLEEP(5) --",
  "1') OR pg_sleep(5) --",
  '\\',
  "''",
  '$1',
  '%',
  '_',
];
export const HTML_INJECTION = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}${7*7}',
  '<!--',
];
export const TRAVERSAL = [
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '/etc/passwd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '....//....//etc/passwd',
  'avatar/1/../../evidence/proof/x',
  'file:///etc/passwd',
  '..',
  '.',
  'C:\\Windows\\System32',
];
export const UNICODE_EDGES = [
  '\u202Eevil\u202Cgnp.exe', // right-to-left override
  'مرحبا بالعالم', // RTL text
  '\u0000',
  'a\u0000b',
  '😀👍🏽👨‍👩‍👧‍👦',
  'e\u0301\u0302\u0303\u0304\u0305', // combining marks
  'Z\u0335\u0321\u0322a\u0337l\u0335g\u0336o\u0338',
  '\uD800', // lone high surrogate
  '\uDFFF', // lone low surrogate
  'a\uD83Db',
  '\uFEFF',
  '\u200B\u200C\u200D',
  '\r\n\t',
  ' ',
  '\u3000',
];
export const HOSTILE_TEXT = [...SQL_INJECTION, ...HTML_INJECTION, ...TRAVERSAL, ...UNICODE_EDGES];

/** Strings refused by a pattern, a length or an enum, in every flavour. */
function stringCandidates(schema: JsonSchema): unknown[] {
  const out: unknown[] = ['', ' ', ONE_MB_STRING, ...HOSTILE_TEXT, 'ADMIN', 'Shop ', '0', '-1'];
  if (schema.maxLength !== undefined) {
    const over = schema.maxLength + 1;
    // Each unit below is one code point, as Ajv and TypeBox count (an emoji pair is one).
    for (const unit of ['x', 'ا', '\u0301', '😀', '\u0000']) out.push(unit.repeat(over));
  }
  if (schema.minLength !== undefined && schema.minLength > 1) out.push('😀'.repeat(schema.minLength - 1));
  return out;
}

function numberCandidates(schema: JsonSchema): unknown[] {
  const out: unknown[] = [
    new RawToken('NaN'),
    new RawToken('Infinity'),
    new RawToken('-Infinity'),
    'NaN',
    'Infinity',
    '-Infinity',
    1.5,
    -1,
    0,
    -0.5,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53 + 2,
    1e308,
    -1e308,
    new RawToken('1e400'),
    '1e400',
    '0x10',
    '1_000',
    '9007199254740993',
    '99999999999999999999999',
  ];
  if (schema.minimum !== undefined) out.push(schema.minimum - 1, schema.minimum - 0.5);
  if (schema.maximum !== undefined) out.push(schema.maximum + 1, schema.maximum + 0.5);
  return out;
}

const WRONG_TYPES: unknown[] = [null, true, false, 0, 'x', [], [1, 'a'], {}, { $gt: '' }, { toString: 'x' }];

/** Values that a field of this schema should refuse (kept only when the whole request is refused). */
export function candidatesFor(schema: JsonSchema): unknown[] {
  const out: unknown[] = [...WRONG_TYPES];
  const kinds = schema.anyOf ?? [schema];
  for (const kind of kinds) {
    if (kind.type === 'string' || typeof kind.const === 'string') out.push(...stringCandidates(kind));
    if (kind.type === 'integer' || kind.type === 'number' || typeof kind.const === 'number') out.push(...numberCandidates(kind));
    if (kind.type === 'boolean') out.push('yes', 'TRUE', 2, 'null');
    if (kind.type === 'array') {
      out.push(
        [],
        Array.from({ length: (kind.maxItems ?? 1000) + 1 }, (_, i) => i + 1),
      );
      if (kind.items !== undefined) for (const bad of candidatesFor(kind.items).slice(0, 12)) out.push([bad]);
      if (kind.uniqueItems === true) out.push([1, 1]);
    }
    if (kind.const !== undefined) out.push(`${String(kind.const)} `, String(kind.const).toUpperCase(), 99);
  }
  return out;
}

// ── Valid bases ───────────────────────────────────────────────────────────────────────────

const STRING_TRIES = ['abcdef', 'Abcdef', '2026-01-01', '2026-01-01T00:00:00.000Z', '/a', '13800000000', 'a', 'abcdefghijkl'];

/** A value the schema accepts (the base a mutation is made on), or undefined when none is found. */
export function validBase(schema: TSchema): unknown {
  const s = asJson(schema);
  if (s.const !== undefined) return s.const;
  if (s.anyOf !== undefined) {
    for (const branch of s.anyOf) {
      const value = validBase(branch as TSchema);
      if (value !== undefined && check(branch as TSchema, value)) return value;
    }
    return undefined;
  }
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = validBase(s.properties![name] as TSchema);
      return out;
    }
    case 'array': {
      const item = s.items === undefined ? 1 : validBase(s.items as TSchema);
      return Array.from({ length: s.minItems ?? 0 }, (_, i) => (typeof item === 'number' ? item + i : item));
    }
    case 'string':
      return STRING_TRIES.find((text) => check(schema, text)) ?? 'abcdef';
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, 1) <= (s.maximum ?? Infinity) ? Math.max(s.minimum ?? 1, 1) : s.minimum;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 1;
  }
}

/** A typed field of a request part: its path in the value, its schema, required or not. */
interface Slot {
  path: (string | number)[];
  schema: JsonSchema;
  required: boolean;
}

function slotsOf(schema: JsonSchema, path: (string | number)[] = [], required = true): Slot[] {
  const own: Slot[] = path.length === 0 ? [] : [{ path, schema, required }];
  if (schema.type === 'object' && schema.properties !== undefined) {
    return [
      ...own,
      ...Object.entries(schema.properties).flatMap(([name, sub]) => slotsOf(sub, [...path, name], (schema.required ?? []).includes(name))),
    ];
  }
  if (schema.type === 'array' && schema.items !== undefined && path.length > 0)
    return [...own, ...slotsOf(schema.items, [...path, 0], true)];
  return own;
}

/** A copy of `base` with the value at `path` set (copied along the path only); `undefined` deletes. */
function setAt(base: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const node: Record<string | number, unknown> = Array.isArray(base)
    ? ([...base] as unknown as Record<number, unknown>)
    : base !== null && typeof base === 'object'
      ? { ...(base as Record<string, unknown>) }
      : typeof key === 'number'
        ? ([] as unknown as Record<number, unknown>)
        : {};
  const next = setAt(node[key], rest, value);
  if (next === undefined) delete node[key];
  else node[key] = next;
  return node;
}

// ── Requests ──────────────────────────────────────────────────────────────────────────────

/** What the answer to a generated request must be. */
export type Expectation = 'refused' | 'read' | 'rule';

export interface FuzzRequest {
  /** The generator that made it (for the counts and the failure report). */
  kind: string;
  expect: Expectation;
  method: string;
  /** Below /api, query included. */
  url: string;
  headers: Record<string, string>;
  /** The raw body, if any. */
  payload?: string | Buffer;
  /** Who sends it: the identity's headers are added by the test ('badToken' carries its own). */
  as: 'superAdmin' | 'shop' | 'anonymous' | 'badToken';
  /** One line saying what was done (the shrunk request is printed with it). */
  what: string;
}

/** A query value as text: arrays repeat the key; objects become bracketed keys (as a form would). */
function renderQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  const encode = (text: string) => encodeText(text);
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) parts.push(`${encode(key)}=${encode(scalarText(item))}`);
    else if (value !== null && typeof value === 'object' && !(value instanceof RawToken)) {
      for (const [sub, v] of Object.entries(value)) parts.push(`${encode(`${key}[${sub}]`)}=${encode(scalarText(v))}`);
    } else parts.push(`${encode(key)}=${encode(scalarText(value))}`);
  }
  return parts.join('&');
}

const scalarText = (value: unknown): string =>
  value instanceof RawToken ? value.text : value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** Percent-encodes text; a lone surrogate becomes the bytes of its WTF-8 form (not UTF-8: the server must cope). */
export function encodeText(text: string): string {
  if (!/[\uD800-\uDFFF]/.test(text)) return encodeURIComponent(text);
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** The query as the server reads it back, converted to the schema's types (Ajv's coercion). */
function queryAsServerSees(schema: TSchema, text: string): unknown {
  const parsed = { ...parseQuery(text) } as Record<string, unknown>;
  // Unknown keys are stripped (removeAdditional), then text converted to the schema's types.
  return Value.Convert(schema, Value.Clean(schema, parsed));
}

const holdsRawToken = (value: unknown): boolean =>
  value instanceof RawToken || (value !== null && typeof value === 'object' && Object.values(value).some(holdsRawToken));

/** Is this body value refused: not JSON once written (a raw token), or not the schema once unknown keys are stripped? */
function valueRefused(schema: TSchema, value: unknown): boolean {
  if (holdsRawToken(value)) return true;
  const copy = value !== null && typeof value === 'object' ? (JSON.parse(JSON.stringify(value)) as unknown) : value;
  return !check(schema, Value.Clean(schema, copy));
}

const jsonText = (value: unknown): string => JSON.stringify(value).replace(/"\\u0000RAW:([^\\]*)\\u0000"/g, (_whole, raw: string) => raw);

/** Is this JSON body refused (not JSON at all, or not the schema)? */
function bodyRefused(schema: TSchema, text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return true;
  }
  return !check(schema, Value.Clean(schema, parsed));
}

/** Who sends a schema-invalid request: mostly the super admin (who reaches validation everywhere). */
const identity = fc.constantFrom<FuzzRequest['as']>('superAdmin', 'superAdmin', 'superAdmin', 'superAdmin', 'shop', 'anonymous');

/** Fields naming a key, a file or a code: traversal there must be refused by the product even where the schema lets it through. */
const TRAVERSAL_FIELD = /^(key|avatar|typeCode|fname|fileName|filename|type|code)$/;

/** A call that changes nothing: a GET with no operation-log rule. */
export const changesNothing = (endpoint: Endpoint): boolean =>
  endpoint.method === 'GET' && (endpoint.log === undefined || endpoint.log === false);

export interface Generator {
  kind: string;
  arbitrary: fc.Arbitrary<FuzzRequest>;
}

/** A path with valid params (the base), and its rendering with given values. */
function pathWith(endpoint: Endpoint, params: Record<string, unknown>): string {
  const names = pathParamNames(endpoint.path);
  let path = endpoint.path;
  for (const name of names) path = path.replace(`:${name}`, encodeText(scalarText(params[name])));
  return `/api${path}`;
}

const made = new WeakMap<Endpoint, Generator[]>();

/** Every kind of bad request this declaration can be sent; an empty list fails the suite. */
export function generatorsOf(endpoint: Endpoint, schemas: EndpointSchemas): Generator[] {
  let generators = made.get(endpoint);
  if (generators === undefined) {
    generators = makeGenerators(endpoint, schemas);
    made.set(endpoint, generators);
  }
  return generators;
}

function makeGenerators(endpoint: Endpoint, schemas: EndpointSchemas): Generator[] {
  const generators: Generator[] = [];
  const { method } = endpoint;
  const params = schemas.params;
  const query = schemas.query;
  const body = schemas.body;
  const paramsBase = params === undefined ? {} : (validBase(params) as Record<string, unknown>);
  const queryBase = query === undefined ? {} : (validBase(query) as Record<string, unknown>);
  const bodyBase = body === undefined || body === 'multipart' ? undefined : validBase(body);
  const basePath = pathWith(endpoint, paramsBase);
  const baseQuery = renderQuery(queryBase);
  const urlOf = (path: string, queryText: string) => (queryText === '' ? path : `${path}?${queryText}`);
  const hasBody = method !== 'GET';
  const jsonHeaders = { 'content-type': 'application/json' };
  const basePayload = bodyBase === undefined ? undefined : jsonText(bodyBase);
  const request = (r: Omit<FuzzRequest, 'method'>): FuzzRequest => ({ method, ...r });

  // ── Path parameters ──
  if (params !== undefined) {
    const variants: { url: string; what: string }[] = [];
    for (const slot of slotsOf(asJson(params))) {
      for (const bad of candidatesFor(slot.schema)) {
        const value = setAt(paramsBase, slot.path, bad) as Record<string, unknown>;
        const text = scalarText(value[slot.path[0] as string]);
        if (text === '') continue; // an empty segment is another route, not this one's bad parameter
        // Read back as the router does (one decoded segment) and converted to the schema's types.
        let decoded: string;
        try {
          decoded = decodeURIComponent(encodeText(text));
        } catch {
          decoded = text;
        }
        if (check(params, Value.Convert(params, { ...paramsBase, [slot.path[0] as string]: decoded }))) continue;
        variants.push({ url: urlOf(pathWith(endpoint, value), baseQuery), what: `params.${slot.path.join('.')} = ${preview(bad)}` });
      }
    }
    for (const raw of ['%', '%zz', '%FF', '%ED%A0%80', '%00', '..%2F..%2Fetc%2Fpasswd']) {
      const names = pathParamNames(endpoint.path);
      const path = `/api${endpoint.path.replace(`:${names[0]}`, raw)}`;
      let decoded: string | undefined;
      try {
        decoded = decodeURIComponent(raw);
      } catch {
        decoded = undefined;
      }
      if (decoded !== undefined && check(params, Value.Convert(params, { ...paramsBase, [names[0]!]: decoded }))) continue;
      variants.push({ url: urlOf(path, baseQuery), what: `params.${names[0]} raw ${raw}` });
    }
    if (variants.length > 0) {
      generators.push({
        kind: 'params',
        arbitrary: fc.tuple(fc.constantFrom(...variants), identity).map(([v, as]) =>
          request({
            kind: 'params',
            expect: 'refused',
            url: v.url,
            headers: basePayload ? jsonHeaders : {},
            payload: basePayload,
            as,
            what: v.what,
          }),
        ),
      });
    }
  }

  // ── Query string ──
  if (query !== undefined) {
    const variants: { text: string; what: string }[] = [];
    const q = asJson(query);
    for (const slot of slotsOf(q)) {
      const candidates = [...candidatesFor(slot.schema), ...(slot.required ? [undefined] : [])];
      for (const bad of candidates) {
        const text = renderQuery(setAt(queryBase, slot.path, bad) as Record<string, unknown>);
        // 1 MB of text in a field limited to fewer characters is refused by its length (no need to parse it back).
        const overLong = bad === ONE_MB_STRING && slot.schema.maxLength !== undefined && slot.schema.maxLength < bad.length;
        if (!overLong && check(query, queryAsServerSees(query, text))) continue;
        variants.push({ text, what: `query.${slot.path.join('.')} = ${bad === undefined ? '(missing)' : preview(bad)}` });
      }
      // The same key twice (an array where one value is expected).
      const twice = `${baseQuery}${baseQuery === '' ? '' : '&'}${encodeText(String(slot.path[0]))}=1&${encodeText(String(slot.path[0]))}=2`;
      if (!check(query, queryAsServerSees(query, twice))) variants.push({ text: twice, what: `query.${slot.path[0]} twice` });
      for (const raw of ['%', '%zz', '%FF', '%ED%A0%80']) {
        const text = `${baseQuery}${baseQuery === '' ? '' : '&'}${encodeText(String(slot.path[0]))}=${raw}`;
        const decodedRefused = !check(query, queryAsServerSees(query, text));
        const rawRefused = !check(query, Value.Convert(query, { ...queryBase, [slot.path[0] as string]: raw }));
        if (decodedRefused && rawRefused) variants.push({ text, what: `query.${slot.path[0]} raw ${raw}` });
      }
    }
    if (variants.length > 0) {
      const extras = fc.option(
        fc.constantFrom('__proto__[isAdmin]=1', 'constructor[prototype][x]=1', 'page[$gt]=', `zz=${encodeText("' OR 1=1 --")}`),
        { nil: undefined },
      );
      generators.push({
        kind: 'query',
        arbitrary: fc.tuple(fc.constantFrom(...variants), extras, identity).map(([v, extra, as]) => {
          // An extra key rides along only while the whole query stays refused.
          const text = extra === undefined ? v.text : `${v.text}&${extra}`;
          const withExtra = extra !== undefined && !check(query, queryAsServerSees(query, text));
          return request({
            kind: 'query',
            expect: 'refused',
            url: urlOf(basePath, withExtra ? text : v.text),
            headers: basePayload ? jsonHeaders : {},
            payload: basePayload,
            as,
            what: `${v.what}${withExtra ? ` + ${extra}` : ''}`,
          });
        }),
      });
    }
  }

  // ── JSON body, field by field ──
  if (body !== undefined && body !== 'multipart') {
    const variants: { value: unknown; what: string }[] = [];
    const b = asJson(body);
    for (const slot of slotsOf(b)) {
      const candidates = [...candidatesFor(slot.schema), ...(slot.required ? [undefined] : [])];
      for (const bad of candidates) {
        const value = setAt(bodyBase, slot.path, bad);
        const overLong = bad === ONE_MB_STRING && slot.schema.maxLength !== undefined && slot.schema.maxLength < bad.length;
        if (!overLong && !valueRefused(body, value)) continue;
        variants.push({ value, what: `body.${slot.path.join('.')} = ${bad === undefined ? '(missing)' : preview(bad)}` });
      }
    }
    for (const root of [null, [], [bodyBase], 'x', 0, true]) {
      if (valueRefused(body, root)) variants.push({ value: root, what: `body = ${preview(root)}` });
    }
    if (variants.length > 0) {
      // Unknown fields ride along (alone they are stripped, by design: removeAdditional).
      const extras = fc.option(
        fc.constantFrom<Record<string, unknown>>(
          { isAdmin: true },
          { roleId: 1, status: 1 },
          { $where: '1==1' },
          { ['x'.repeat(300)]: 1 },
          { ['\u0000']: '\uD800' },
        ),
        { nil: undefined },
      );
      generators.push({
        kind: 'body',
        arbitrary: fc.tuple(fc.constantFrom(...variants), extras, identity).map(([v, extra, as]) => {
          // The mutation wins over an extra of the same name, and the whole must stay refused (else no extra).
          const merged =
            extra !== undefined && v.value !== null && typeof v.value === 'object' && !Array.isArray(v.value)
              ? { ...extra, ...v.value }
              : v.value;
          const withExtra = merged !== v.value && valueRefused(body, merged);
          const value = withExtra ? merged : v.value;
          return request({
            kind: 'body',
            expect: 'refused',
            url: urlOf(basePath, baseQuery),
            headers: jsonHeaders,
            payload: jsonText(value),
            as,
            what: `${v.what}${withExtra ? ` + extra ${preview(extra)}` : ''}`,
          });
        }),
      });
      // A JSON body whose fields are well-named but hold NaN / Infinity / a prototype key: not JSON, or refused by the parser.
      const fields = Object.keys(b.properties ?? {});
      generators.push({
        kind: 'json-tokens',
        arbitrary: fc
          .tuple(
            fc.constantFrom(...(fields.length > 0 ? fields : ['x'])),
            fc.constantFrom('NaN', 'Infinity', '-Infinity', 'undefined', '0x1F', "'x'"),
            identity,
          )
          .map(([field, token, as]) =>
            request({
              kind: 'json-tokens',
              expect: 'refused',
              url: urlOf(basePath, baseQuery),
              headers: jsonHeaders,
              payload: basePayload!.replace(/^\{/, `{"${field}":${token}${basePayload === '{}' ? '' : ','}`),
              as,
              what: `body.${field} = ${token} (not JSON)`,
            }),
          ),
      });
    }
  }

  // ── Malformed JSON, content types, size (every call with a body) ──
  if (hasBody && body !== 'multipart') {
    const malformed = [
      '{',
      '{"a":',
      '[1,2',
      '{"a":1}}',
      "{'a':1}",
      '\u0000',
      '{"__proto__":{"isAdmin":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
      'null',
      '"\uD800"',
      '',
      '\uFEFF{',
      '{"a":"\u0000"',
    ];
    // Without a body schema any JSON is read past: only text the parser refuses (not JSON, or a prototype key) is bad.
    const candidates = malformed.filter((text) => (body === undefined ? parserRefuses(text) : bodyRefused(body, text)));
    generators.push({
      kind: 'malformed-json',
      arbitrary: fc.tuple(fc.constantFrom(...candidates), identity).map(([text, as]) =>
        request({
          kind: 'malformed-json',
          expect: 'refused',
          url: urlOf(basePath, baseQuery),
          headers: jsonHeaders,
          payload: text,
          as,
          what: `body text ${preview(text)}`,
        }),
      ),
    });
    // Types the API has no parser for; text/plain only where a JSON object is expected (Fastify reads text).
    const types = [
      'application/xml',
      'application/x-www-form-urlencoded',
      'image/png',
      'application/octet-stream',
      'multipart/form-data; boundary=x',
    ];
    if (body !== undefined) types.push('text/plain', 'text/csv; charset=utf-8');
    generators.push({
      kind: 'content-type',
      arbitrary: fc.tuple(fc.constantFrom(...types), identity).map(([type, as]) =>
        request({
          kind: 'content-type',
          expect: 'refused',
          url: urlOf(basePath, baseQuery),
          headers: { 'content-type': type },
          payload: basePayload ?? '{}',
          as,
          what: `content-type ${type}`,
        }),
      ),
    });
    generators.push({
      kind: 'oversized',
      arbitrary: fc.tuple(fc.constantFrom(ONE_MB_STRING.length, 4 * MB), identity).map(([size, as]) =>
        request({
          kind: 'oversized',
          expect: 'refused',
          url: urlOf(basePath, baseQuery),
          headers: jsonHeaders,
          payload: `{"x":"${'x'.repeat(size)}"}`,
          as,
          what: `body of ${size} bytes`,
        }),
      ),
    });
  }

  // ── Multipart (the order import) ──
  if (body === 'multipart') generators.push({ kind: 'multipart', arbitrary: multipartArbitrary(basePath, baseQuery, urlOf, request) });

  // ── Credentials that are no session ──
  if (endpoint.access.auth !== 'public') {
    const tokens = [
      'Bearer',
      'Bearer ',
      'Bearer x',
      `Bearer ${'a'.repeat(64)}`,
      `Bearer ${'f'.repeat(8192)}`,
      "Bearer ' OR '1'='1",
      'Bearer ../../../../etc/passwd',
      'Basic YWRtaW46QWRtaW4xMjM0NQ==',
      'bearer',
      'Token abc',
      '',
    ];
    generators.push({
      kind: 'credentials',
      arbitrary: fc.constantFrom(...tokens).map((authorization) =>
        request({
          kind: 'credentials',
          expect: 'refused',
          url: urlOf(basePath, baseQuery),
          headers: { authorization, ...(basePayload ? jsonHeaders : {}) },
          payload: basePayload,
          as: 'badToken',
          what: `authorization ${preview(authorization)}`,
        }),
      ),
    });
  }

  // ── Hostile text where a success changes nothing ──
  if (changesNothing(endpoint)) {
    const textFields: { part: 'params' | 'query'; name: string }[] = [];
    for (const [part, schema] of [
      ['params', params],
      ['query', query],
    ] as const) {
      for (const [field, sub] of Object.entries(schema === undefined ? {} : (asJson(schema).properties ?? {}))) {
        if (sub.type === 'string' && sub.pattern === undefined) textFields.push({ part, name: field });
      }
    }
    const hostile = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    );
    if (textFields.length > 0) {
      generators.push({
        kind: 'hostile-read',
        arbitrary: fc
          .tuple(fc.constantFrom(...textFields), hostile, fc.constantFrom<FuzzRequest['as']>('superAdmin', 'shop', 'anonymous'))
          .chain(([field, text, as]) => {
            const maxLength = asJson((field.part === 'params' ? params : query)!).properties![field.name]!.maxLength ?? 100;
            const value = [...text].slice(0, maxLength).join('');
            const nextParams = field.part === 'params' ? { ...paramsBase, [field.name]: value } : paramsBase;
            const nextQuery = field.part === 'query' ? { ...queryBase, [field.name]: value } : queryBase;
            if (field.part === 'params' && value === '') return fc.constant(undefined);
            return fc.constant(
              request({
                kind: 'hostile-read',
                expect: 'read',
                url: urlOf(pathWith(endpoint, nextParams), renderQuery(nextQuery)),
                headers: {},
                as,
                what: `${field.part}.${field.name} = ${preview(value)}`,
              }),
            );
          })
          .filter((r): r is FuzzRequest => r !== undefined),
      });
    } else {
      // No text to carry it: unknown query parameters, which the call ignores.
      generators.push({
        kind: 'hostile-read',
        arbitrary: fc
          .tuple(fc.constantFrom(...HOSTILE_TEXT), fc.constantFrom<FuzzRequest['as']>('superAdmin', 'shop', 'anonymous'))
          .map(([text, as]) =>
            request({
              kind: 'hostile-read',
              expect: 'read',
              url: `${basePath}?q=${encodeText(text)}&${encodeText(text)}=1`,
              headers: {},
              as,
              what: `unknown query ${preview(text)}`,
            }),
          ),
      });
    }
  }

  // ── Traversal in keys, file names and codes of a call that changes data: the rule refuses ──
  if (!changesNothing(endpoint) && body !== undefined && body !== 'multipart') {
    const fields = Object.entries(asJson(body).properties ?? {}).filter(
      ([field, sub]) => TRAVERSAL_FIELD.test(field) && sub.type === 'string',
    );
    const variants: { value: unknown; what: string }[] = [];
    for (const [field] of fields) {
      for (const text of TRAVERSAL) {
        const value = setAt(bodyBase, [field], text);
        // Valid per the schema (else the 'body' generator has it already).
        if (!valueRefused(body, value)) variants.push({ value, what: `body.${field} = ${preview(text)} (schema-valid)` });
      }
    }
    if (variants.length > 0) {
      generators.push({
        kind: 'traversal-rule',
        arbitrary: fc.constantFrom(...variants).map((v) =>
          request({
            kind: 'traversal-rule',
            expect: 'rule',
            url: urlOf(basePath, baseQuery),
            headers: jsonHeaders,
            payload: jsonText(v.value),
            as: 'superAdmin',
            what: v.what,
          }),
        ),
      });
    }
  }

  return generators;
}

/** Does Fastify's JSON parser refuse this text (not JSON, empty, or a prototype-poisoning key)? */
const parserRefuses = (text: string): boolean => {
  if (/"(__proto__|constructor)"\s*:/.test(text)) return true;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
};

function multipartArbitrary(
  basePath: string,
  baseQuery: string,
  urlOf: (path: string, query: string) => string,
  request: (r: Omit<FuzzRequest, 'method'>) => FuzzRequest,
): fc.Arbitrary<FuzzRequest> {
  const boundary = '----fuzzBoundary7MA4YWxkTrZu0gW';
  const part = (name: string, content: string | Buffer, fileName?: string, type?: string): Buffer =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${fileName === undefined ? '' : `; filename="${fileName}"`}\r\n${type === undefined ? '' : `Content-Type: ${type}\r\n`}\r\n`,
      ),
      Buffer.isBuffer(content) ? content : Buffer.from(content),
      Buffer.from('\r\n'),
    ]);
  const end = Buffer.from(`--${boundary}--\r\n`);
  const junk = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x13, 0x37, 0x00, 0x00]);
  const csvInjection = Buffer.from("=cmd|' /C calc'!A0,<script>alert(1)</script>,' OR 1=1 --\n\u0000\u202E,😀\n");
  const cases: { what: string; type: string; payload: Buffer }[] = [
    { what: 'no file part', type: `multipart/form-data; boundary=${boundary}`, payload: Buffer.concat([part('note', 'x'), end]) },
    {
      what: 'file under another field',
      type: `multipart/form-data; boundary=${boundary}`,
      payload: Buffer.concat([part('upload', junk, 'a.xlsx'), end]),
    },
    ...TRAVERSAL.slice(0, 6).map((fileName) => ({
      what: `file name ${fileName} (not a spreadsheet)`,
      type: `multipart/form-data; boundary=${boundary}`,
      payload: Buffer.concat([part('file', junk, fileName, 'application/octet-stream'), end]),
    })),
    {
      what: 'xlsx that is not a zip',
      type: `multipart/form-data; boundary=${boundary}`,
      payload: Buffer.concat([part('file', junk, 'orders.xlsx'), end]),
    },
    {
      what: 'csv of hostile text',
      type: `multipart/form-data; boundary=${boundary}`,
      payload: Buffer.concat([part('file', csvInjection, 'orders.csv', 'text/csv'), end]),
    },
    {
      what: 'empty file',
      type: `multipart/form-data; boundary=${boundary}`,
      payload: Buffer.concat([part('file', Buffer.alloc(0), 'orders.csv'), end]),
    },
    {
      what: 'truncated form',
      type: `multipart/form-data; boundary=${boundary}`,
      payload: Buffer.concat([part('file', junk, 'orders.xlsx')]).subarray(0, 60),
    },
    {
      what: 'boundary not in the body',
      type: 'multipart/form-data; boundary=other',
      payload: Buffer.concat([part('file', junk, 'orders.xlsx'), end]),
    },
    { what: 'no boundary', type: 'multipart/form-data', payload: Buffer.concat([part('file', junk, 'orders.xlsx'), end]) },
    {
      what: 'two files',
      type: `multipart/form-data; boundary=${boundary}`,
      payload: Buffer.concat([part('file', junk, 'a.xlsx'), part('file', junk, 'b.xlsx'), end]),
    },
    { what: 'JSON instead of a form', type: 'application/json', payload: Buffer.from('{"file":"orders.xlsx"}') },
    { what: 'plain text instead of a form', type: 'text/plain', payload: Buffer.from('objWechat,mac\nx,y') },
    {
      what: 'file name with NUL and RTL',
      type: `multipart/form-data; boundary=${boundary}`,
      payload: Buffer.concat([part('file', junk, 'a\u0000\u202Exslx.csv'), end]),
    },
    {
      what: 'file of 4 MB of junk',
      type: `multipart/form-data; boundary=${boundary}`,
      payload: Buffer.concat([part('file', Buffer.alloc(4 * MB, 0xff), 'orders.xlsx'), end]),
    },
  ];
  return fc.tuple(fc.constantFrom(...cases), identity).map(([c, as]) =>
    request({
      kind: 'multipart',
      expect: 'refused',
      url: urlOf(basePath, baseQuery),
      headers: { 'content-type': c.type },
      payload: c.payload,
      as,
      what: c.what,
    }),
  );
}

/** A short, printable view of a generated value. */
export function preview(value: unknown): string {
  let text: string;
  if (value instanceof RawToken) text = value.text;
  else if (typeof value === 'string') text = JSON.stringify(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > 80 ? `${text.slice(0, 60)}… (${text.length} chars)` : text;
}
