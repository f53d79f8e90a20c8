/**
 * Bad input, generated from the contract (decision 0102). Every endpoint declaration
 * gets bad requests made from its own schemas (fuzz-arbitraries.ts), sent with app.inject as the
 * super admin, a shop and nobody; every answer must be the envelope with a clear message, never
 * a 5xx and never a stack trace, and after the run every table but the ones a refused call may
 * write (fuzz-tables.ts) must hold the same rows. The embedded upload host gets malformed
 * requests of the provider's protocol and must answer the provider's error codes.
 *
 * Short form by default (the normal server suite); RELIABILITY=full sends over 10,000. The seed
 * is fixed; FUZZ_SEED=<n> replays another. A failure names the seed, the route and the shrunk request.
 */
import { endpointList } from '@clearplay/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemasOf } from '../http/endpoint.ts';
import { pngBytes } from '../modules/uploads/host/test-support.ts';
import { urlSafeBase64Encode } from '../modules/uploads/upload-token.ts';
import { call, createTestContext, createUser, flushLogs, loginAs, testDbKind, type LoggedIn, type TestContext } from '../test/context.ts';
import { orderBody } from '../test/orders.ts';
import { generatorsOf, preview, type FuzzRequest } from './fuzz-arbitraries.ts';
import { compareSnapshots, snapshotFiles, snapshotTables } from './fuzz-tables.ts';

// Suite settings (not app configuration).
const suiteEnv = process.env;
const FULL = suiteEnv.RELIABILITY === 'full';
const SEED = suiteEnv.FUZZ_SEED === undefined ? 102_2026 : Number(suiteEnv.FUZZ_SEED);
/** Requests per generator of a route: short 1,630 requests in all (326 generators), full 10,432. */
const RUNS_PER_GENERATOR = FULL ? 32 : 5;
const UPLOAD_ROUNDS = FULL ? 8 : 1;

/** A stack frame, a source path or a runtime's internal error code in an error answer. */
const LEAK =
  /\n\s+at |\bat [\w$.<>]+ \(|node_modules|\/src\/|\.ts:\d+|\.js:\d+|\/work\/|\/home\/|\/tmp\/|FST_[A-Z_]+|ERR_[A-Z_]+|SQLITE_|ER_[A-Z_]+|syntax error at|duplicate key/;
/** A message that says nothing. */
const EMPTY_MESSAGE = /^\s*(undefined|null|error|\[object Object\]|internal server error)?\s*$/i;

let ctx: TestContext;
let superAdmin: LoggedIn;
let shop: LoggedIn;

beforeAll(async () => {
  // The upload host's images kept small, so an oversized part is cheap to send.
  ctx = await createTestContext({ ownDataDir: true, env: { UPLOAD_MAX_IMAGE_MB: '1' } });
  superAdmin = await loginAs(ctx, 'super_admin');
  shop = await loginAs(ctx, 'shop');
  // Some business to protect: an order of the shop, an announcement.
  const inspector = await createUser(ctx, 'inspector');
  const order = await call(ctx, 'POST', '/api/admin/order/create', {
    as: superAdmin,
    payload: orderBody({ userId: shop.id, inspectorId: inspector.id, amount: 500 }),
  });
  expect(order.status).toBe(200);
  const note = await call(ctx, 'POST', '/api/admin/announcement/add', {
    as: superAdmin,
    payload: { title: 'Fuzz', type: 'notice', content: 'Before the run' },
  });
  expect(note.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await ctx?.destroy();
});

interface Tally {
  byStatus: Map<string, number>;
  byKind: Map<string, number>;
  total: number;
}
const newTally = (): Tally => ({ byStatus: new Map(), byKind: new Map(), total: 0 });
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
const line = (map: Map<string, number>) =>
  [...map]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');

function headersOf(request: FuzzRequest): Record<string, string> {
  const identity = request.as === 'superAdmin' ? superAdmin.headers : request.as === 'shop' ? shop.headers : {};
  return { ...identity, ...request.headers };
}

async function send(request: FuzzRequest): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: headersOf(request),
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
}

/** What is wrong with an API answer to this request, or undefined. */
function problemOf(request: FuzzRequest, res: LightMyRequestResponse, fileRoute: boolean): string | undefined {
  if (res.statusCode >= 500) return `HTTP ${res.statusCode}`;
  const type = String(res.headers['content-type'] ?? '');
  if (request.expect === 'read' && res.statusCode === 200 && fileRoute) return undefined;
  if (!type.startsWith('application/json')) return `not JSON (${type || 'no type'}): ${preview(res.body)}`;
  let envelope: { status?: unknown; msg?: unknown; data?: unknown };
  try {
    envelope = JSON.parse(res.body) as typeof envelope;
  } catch {
    return `not the envelope: ${preview(res.body)}`;
  }
  if (typeof envelope.status !== 'number' || typeof envelope.msg !== 'string' || !('data' in envelope))
    return `not the envelope: ${preview(res.body)}`;
  if (envelope.status >= 500 && envelope.status <= 599) return `envelope status ${envelope.status}`;
  if (request.expect !== 'read' && (res.statusCode < 400 || envelope.status < 400))
    return `accepted (HTTP ${res.statusCode}, status ${envelope.status}): ${preview(res.body)}`;
  if (res.statusCode >= 400) {
    if (EMPTY_MESSAGE.test(envelope.msg)) return `no clear message: ${preview(res.body)}`;
    const leak = LEAK.exec(res.body);
    if (leak !== null) return `leaks "${leak[0]}": ${preview(res.body)}`;
  }
  return undefined;
}

describe('bad input generated from the contract (decision 0102)', () => {
  const declarations = endpointList();

  it('has a generator for every declaration and every part it declares', () => {
    const missing: string[] = [];
    for (const { name, endpoint } of declarations) {
      const schemas = schemasOf(endpoint);
      const kinds = new Set(generatorsOf(endpoint, schemas).map((g) => g.kind));
      if (kinds.size === 0) missing.push(`${name}: no generator`);
      if (schemas.params !== undefined && !kinds.has('params')) missing.push(`${name}: params`);
      if (schemas.query !== undefined && !kinds.has('query')) missing.push(`${name}: query`);
      if (schemas.body !== undefined && schemas.body !== 'multipart' && !kinds.has('body')) missing.push(`${name}: body`);
      if (schemas.body === 'multipart' && !kinds.has('multipart')) missing.push(`${name}: multipart`);
      if (endpoint.method !== 'GET' && !kinds.has('malformed-json') && schemas.body !== 'multipart')
        missing.push(`${name}: malformed JSON`);
    }
    expect(missing).toEqual([]);
    expect(declarations.length).toBeGreaterThan(80);
  }, 120_000);

  it(
    `answers every bad request with the envelope, a clear message, no 5xx and no stack, and changes no row (${FULL ? 'full' : 'short'} form)`,
    async () => {
      const started = performance.now();
      const tally = newTally();
      const before = await snapshotTables(ctx.db);
      const problems: string[] = [];
      let index = 0;
      for (const { name, endpoint } of declarations) {
        const schemas = schemasOf(endpoint);
        const fileRoute = schemas.response === 'file';
        const sent: string[] = [];
        for (const generator of generatorsOf(endpoint, schemas)) {
          const seed = (SEED + index++ * 7919) | 0;
          const result = await fc.check(
            fc.asyncProperty(generator.arbitrary, async (request) => {
              const res = await send(request);
              tally.total++;
              bump(tally.byStatus, String(res.statusCode));
              bump(tally.byKind, `${request.kind}/${request.expect}`);
              if (sent.length < 400)
                sent.push(`${request.method} ${preview(request.url)} as ${request.as}: ${request.what} → ${res.statusCode}`);
              const problem = problemOf(request, res, fileRoute);
              if (problem !== undefined)
                throw new Error(`${request.method} ${request.url.slice(0, 300)} as ${request.as} (${request.what}): ${problem}`);
            }),
            { seed, numRuns: RUNS_PER_GENERATOR, endOnFailure: false },
          );
          if (result.failed) {
            problems.push(
              `FUZZ_SEED=${SEED} ${name} [${generator.kind}] (fast-check seed ${seed}, path ${result.counterexamplePath}): ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`,
            );
          }
        }
        // Rows are compared after each route's requests: a change names the route and what it was sent.
        await flushLogs(ctx);
        const { changed } = compareSnapshots(before, await snapshotTables(ctx.db));
        if (changed.length > 0) {
          problems.push(`FUZZ_SEED=${SEED} ${name} changed rows: ${changed.join('; ')}\n  sent:\n  ${sent.join('\n  ')}`);
          break;
        }
      }
      await flushLogs(ctx);
      const { changed, allowed } = compareSnapshots(before, await snapshotTables(ctx.db));
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `fuzz [${testDbKind()}] ${FULL ? 'full' : 'short'}, FUZZ_SEED=${SEED}: ${tally.total} requests to ${declarations.length} routes in ${seconds} s — HTTP ${line(tally.byStatus)}; 5xx: ${[...tally.byStatus].filter(([status]) => Number(status) >= 500).reduce((sum, [, n]) => sum + n, 0)}; changed tables: ${changed.length}; allowed writes: ${allowed.join('; ') || 'none'}`,
      );
      console.log(`fuzz [${testDbKind()}] by kind/expectation: ${line(tally.byKind)}`);
      expect(problems).toEqual([]);
      expect(changed).toEqual([]);
      expect(tally.total).toBeGreaterThanOrEqual(FULL ? 10_000 : 1_500);
    },
    FULL ? 1_800_000 : 240_000,
  );
});

describe('the embedded upload host refuses malformed protocol requests with the provider codes', () => {
  it('answers 4xx / 612 / 614 / 631 with {"error"}, never a 5xx or 599, and stores nothing', async () => {
    const tokenOf = async (purpose: string) => {
      const res = await call<{ uploadToken: string; key: string }>(ctx, 'GET', `/api/admin/upload/token?purpose=${purpose}`, {
        as: superAdmin,
      });
      expect(res.status).toBe(200);
      return res.data;
    };
    const { uploadToken, key } = await tokenOf('proof');
    const encodedKey = urlSafeBase64Encode(key);
    const objects = `/upload/buckets/clearplay/objects/${encodedKey}/uploads`;
    // One live chunked upload (made before the snapshot), so bad parts reach the part checks.
    const init = await ctx.app.inject({ method: 'POST', url: objects, headers: { authorization: `UpToken ${uploadToken}` } });
    expect(init.statusCode).toBe(200);
    const { uploadId } = init.json<{ uploadId: string }>();
    const up = { authorization: `UpToken ${uploadToken}` };
    const uploadsRoot = join(ctx.config.uploadsDir);
    const filesBefore = await snapshotFiles(uploadsRoot);
    const rowsBefore = await snapshotTables(ctx.db);

    const boundary = '----hostFuzz';
    const form = (parts: [string, string | Buffer, string?][], cut?: number): Buffer => {
      const body = Buffer.concat([
        ...parts.map(([name, value, file]) =>
          Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file === undefined ? '' : `; filename="${file}"`}\r\n\r\n`,
            ),
            Buffer.isBuffer(value) ? value : Buffer.from(value),
            Buffer.from('\r\n'),
          ]),
        ),
        Buffer.from(`--${boundary}--\r\n`),
      ]);
      return cut === undefined ? body : body.subarray(0, cut);
    };
    const multipart = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const png = pngBytes(2000);
    const text = Buffer.from('<html><script>alert(1)</script></html>');
    const badTokens = [
      '',
      'x',
      'a:b:c',
      `test-ak:${'A'.repeat(28)}:${urlSafeBase64Encode('{"scope":"clearplay","deadline":1}')}`,
      `${uploadToken}x`,
      uploadToken.replace(/:[^:]+$/, ':!!!'),
      "' OR 1=1 --",
      '\u202E',
    ];
    const badKeys = [
      '../../../../etc/passwd',
      'evidence/proof/../../x',
      '/abs',
      '',
      'a'.repeat(2000),
      'evidence\u0000proof',
      key.replace(/\/[^/]+$/, '/other'),
    ];
    const badEncodedKeys = [
      '!!!',
      '%%%',
      '====',
      'a',
      urlSafeBase64Encode('../../etc/passwd'),
      urlSafeBase64Encode('evidence/proof/../../../x'),
      '%00',
      '..%2F..%2Fetc',
    ];
    const badUploadIds = ['x', '../../etc/passwd', '..%2F..%2Fetc', '0'.repeat(64), 'ffffffffffffffffffffffffffffffff', '%00', "' OR 1=1"];
    const badPartNumbers = ['0', '-1', '10001', '1.5', 'abc', '99999999999', '1e3', '%00', '01'];

    type Case = {
      what: string;
      method: 'GET' | 'POST' | 'PUT' | 'DELETE';
      url: string;
      headers?: Record<string, string>;
      payload?: string | Buffer;
    };
    const cases: Case[] = [
      // Form upload.
      {
        what: 'form: JSON body',
        method: 'POST',
        url: '/upload',
        headers: { 'content-type': 'application/json' },
        payload: '{"token":"x"}',
      },
      { what: 'form: text body', method: 'POST', url: '/upload', headers: { 'content-type': 'text/plain' }, payload: 'x' },
      { what: 'form: malformed JSON', method: 'POST', url: '/upload', headers: { 'content-type': 'application/json' }, payload: '{' },
      {
        what: 'form: no token',
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form([
          ['file', png, 'a.png'],
          ['key', key],
        ]),
      },
      ...badTokens.map((t): Case => ({
        what: `form: token ${preview(t)}`,
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form([
          ['file', png, 'a.png'],
          ['token', t],
          ['key', key],
        ]),
      })),
      ...badKeys.map((k): Case => ({
        what: `form: key ${preview(k)}`,
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form([
          ['token', uploadToken],
          ['key', k],
          ['file', png, '../../a.png'],
        ]),
      })),
      {
        what: 'form: no file',
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form([
          ['token', uploadToken],
          ['key', key],
        ]),
      },
      {
        what: 'form: empty file',
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form([
          ['token', uploadToken],
          ['key', key],
          ['file', Buffer.alloc(0), 'a.png'],
        ]),
      },
      {
        what: 'form: not an image',
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form([
          ['token', uploadToken],
          ['key', key],
          ['file', text, 'a.png'],
        ]),
      },
      {
        what: 'form: crc32 mismatch',
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form([
          ['token', uploadToken],
          ['key', key],
          ['crc32', '1'],
          ['file', png, 'a.png'],
        ]),
      },
      {
        what: 'form: image over the limit',
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form([
          ['token', uploadToken],
          ['key', key],
          ['file', pngBytes(1024 * 1024 + 10), 'a.png'],
        ]),
      },
      {
        what: 'form: truncated',
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form(
          [
            ['token', uploadToken],
            ['key', key],
            ['file', png, 'a.png'],
          ],
          300,
        ),
      },
      {
        what: 'form: no boundary',
        method: 'POST',
        url: '/upload',
        headers: { 'content-type': 'multipart/form-data' },
        payload: form([
          ['token', uploadToken],
          ['file', png, 'a.png'],
        ]),
      },
      {
        what: 'form: field name over the limit',
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form([
          ['token', uploadToken],
          ['x:note', 'x'.repeat(70 * 1024)],
          ['file', png, 'a.png'],
        ]),
      },
      {
        what: 'form: two files',
        method: 'POST',
        url: '/upload',
        headers: multipart,
        payload: form([
          ['token', uploadToken],
          ['file', png, 'a.png'],
          ['file', png, 'b.png'],
        ]),
      },
      // Chunked: init.
      ...badTokens.map((t): Case => ({
        what: `init: token ${preview(t)}`,
        method: 'POST',
        url: objects,
        headers: { authorization: `UpToken ${t}` },
      })),
      { what: 'init: Bearer instead of UpToken', method: 'POST', url: objects, headers: { authorization: `Bearer ${uploadToken}` } },
      { what: 'init: other bucket', method: 'POST', url: objects.replace('/clearplay/', '/other/'), headers: up },
      ...badEncodedKeys.map((k): Case => ({
        what: `init: encoded key ${k}`,
        method: 'POST',
        url: `/upload/buckets/clearplay/objects/${k}/uploads`,
        headers: up,
      })),
      // Chunked: parts.
      ...badUploadIds.map((id): Case => ({
        what: `part: upload id ${id}`,
        method: 'PUT',
        url: `${objects}/${id}/1`,
        headers: up,
        payload: png,
      })),
      ...badPartNumbers.map((n): Case => ({
        what: `part: number ${n}`,
        method: 'PUT',
        url: `${objects}/${uploadId}/${n}`,
        headers: { ...up, 'content-type': 'application/octet-stream' },
        payload: png,
      })),
      {
        what: 'part: first part not an image',
        method: 'PUT',
        url: `${objects}/${uploadId}/1`,
        headers: { ...up, 'content-type': 'application/octet-stream' },
        payload: text,
      },
      { what: 'part: empty', method: 'PUT', url: `${objects}/${uploadId}/1`, headers: up, payload: '' },
      {
        what: 'part: Content-MD5 mismatch',
        method: 'PUT',
        url: `${objects}/${uploadId}/1`,
        headers: { ...up, 'content-md5': '0'.repeat(32) },
        payload: png,
      },
      {
        what: 'part: over the size limit',
        method: 'PUT',
        url: `${objects}/${uploadId}/1`,
        headers: { ...up, 'content-type': 'application/octet-stream' },
        payload: pngBytes(1024 * 1024 + 10),
      },
      {
        what: 'part: JSON content type, not an image',
        method: 'PUT',
        url: `${objects}/${uploadId}/1`,
        headers: { ...up, 'content-type': 'application/json' },
        payload: '{"a":1}',
      },
      { what: 'part: no token', method: 'PUT', url: `${objects}/${uploadId}/2`, payload: png },
      {
        what: 'part: other bucket',
        method: 'PUT',
        url: `${objects.replace('/clearplay/', '/x/')}/${uploadId}/2`,
        headers: up,
        payload: png,
      },
      // Chunked: complete.
      ...[
        '{',
        'null',
        '[]',
        '{"parts":[]}',
        '{"parts":[{"etag":"x","partNumber":1}]}',
        '{"parts":[{"etag":1,"partNumber":"1"}]}',
        '{"parts":[{"etag":"a","partNumber":2},{"etag":"b","partNumber":1}]}',
        '{"parts":[{"etag":"a","partNumber":10001}]}',
        '{"parts":[{"etag":"a","partNumber":1}],"customVars":{"y":"1"}}',
        '{"parts":[{"etag":"a","partNumber":1}],"fname":5}',
        '{"parts":[{"etag":"a","partNumber":NaN}]}',
      ].map((body): Case => ({
        what: `complete: ${body}`,
        method: 'POST',
        url: `${objects}/${uploadId}`,
        headers: { ...up, 'content-type': 'application/json' },
        payload: body,
      })),
      {
        what: 'complete: text body',
        method: 'POST',
        url: `${objects}/${uploadId}`,
        headers: { ...up, 'content-type': 'text/plain' },
        payload: '{"parts":[]}',
      },
      {
        what: 'complete: body over 2 MB',
        method: 'POST',
        url: `${objects}/${uploadId}`,
        headers: { ...up, 'content-type': 'application/json' },
        payload: `{"parts":[],"x":"${'x'.repeat(2 * 1024 * 1024 + 10)}"}`,
      },
      ...badUploadIds.map((id): Case => ({
        what: `complete: upload id ${id}`,
        method: 'POST',
        url: `${objects}/${id}`,
        headers: { ...up, 'content-type': 'application/json' },
        payload: '{"parts":[{"etag":"a","partNumber":1}]}',
      })),
      // Chunked: abort.
      ...badUploadIds.map((id): Case => ({ what: `abort: upload id ${id}`, method: 'DELETE', url: `${objects}/${id}`, headers: up })),
      { what: 'abort: bad token', method: 'DELETE', url: `${objects}/${uploadId}`, headers: { authorization: 'UpToken x' } },
      // Serving and unknown routes.
      ...[
        '..%2F..%2F..%2Fetc%2Fpasswd',
        'evidence%2F..%2F..%2Fsecrets',
        `${key}?e=1&token=x`,
        `${key}?e=99999999999&token=${'a'.repeat(43)}`,
        '%00',
        'evidence/proof/%ED%A0%80',
      ].map((path): Case => ({ what: `serve: ${path}`, method: 'GET', url: `/upload/files/${path}` })),
      { what: 'unknown route', method: 'POST', url: '/upload/v3/buckets/x', headers: up },
      { what: 'unknown method route', method: 'PUT', url: '/upload', headers: up, payload: png },
    ];

    const byStatus = new Map<string, number>();
    const problems: string[] = [];
    let total = 0;
    for (let round = 0; round < UPLOAD_ROUNDS; round++) {
      for (const c of cases) {
        const res = await ctx.app.inject({
          method: c.method,
          url: c.url,
          headers: c.headers ?? {},
          ...(c.payload === undefined ? {} : { payload: c.payload }),
        });
        total++;
        bump(byStatus, String(res.statusCode));
        const wrong = (why: string) => problems.push(`${c.what}: ${why} — HTTP ${res.statusCode} ${preview(res.body)}`);
        // The provider's answers: 4xx, or its own 612 / 614 / 631; 599 is its "internal error".
        if (!(res.statusCode >= 400 && res.statusCode < 500) && ![612, 614, 631].includes(res.statusCode))
          wrong('not a provider error code');
        let error: unknown;
        try {
          error = (JSON.parse(res.body) as { error?: unknown }).error;
        } catch {
          error = undefined;
        }
        if (typeof error !== 'string' || error.trim() === '') wrong('no {"error": message}');
        const leak = LEAK.exec(res.body);
        if (leak !== null) wrong(`leaks "${leak[0]}"`);
      }
    }
    // A refused part of a known length may leave bytes in the upload's in-place container
    // (`data-<length>`, shared by the parts of that length, modules/uploads/host/host-storage.ts): no record points
    // at them and they go with the upload. Records, stored objects and temp files must not change.
    const containers = (files: Map<string, string>) => [...files].filter(([path]) => !/\/data-\d+$/.test(path)).sort();
    const filesAfter = await snapshotFiles(uploadsRoot);
    const { changed } = compareSnapshots(rowsBefore, await snapshotTables(ctx.db));
    console.log(`fuzz [${testDbKind()}] upload host: ${total} requests — HTTP ${line(byStatus)}`);
    expect(problems).toEqual([]);
    expect(containers(filesAfter)).toEqual(containers(filesBefore));
    expect(changed).toEqual([]);
  }, 120_000);
});
