import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { AppConfig } from './config.ts';
import type { Db } from './db/index.ts';
import { listApiRoutes } from './http/endpoint.ts';
import authPlugin, { DOCS_PREFIX } from './plugins/auth.ts';
import errorsPlugin, { frameworkError } from './plugins/errors.ts';
import operationLogPlugin from './plugins/operation-log.ts';
import securityPlugin, { securityHeaders } from './plugins/security.ts';
import spaPlugin from './plugins/spa.ts';
import swaggerPlugin from './plugins/swagger.ts';
import localUploadHost from './modules/uploads/host/local-host.ts';
import { LOCAL_BUCKET, LOCAL_UPLOAD_PREFIX, resolveEvidenceUrlSecret, resolveUploadKeys } from './modules/uploads/uploads.config.ts';
import { registerRoutes } from './routes.ts';
import { admitInTurn } from './http/admission.ts';
import { bodyDeadline, CONNECTIONS_CHECK_MS } from './http/request-deadline.ts';
import { REQUEST_ID_HEADER, requestIdOf } from './lib/request-context.ts';
import { lazyRequestLogger } from './lib/request-log.ts';

export interface AppDeps {
  config: AppConfig;
  db: Db;
  /** Defaults to a pino logger at config.logLevel; tests pass false. */
  logger?: FastifyServerOptions['logger'];
}

/** Never log secrets: bearer tokens, passwords, password hashes, signing keys. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.newPassword',
  '*.passwordHash',
  '*.token',
  '*.authorization',
  '*.secretKey',
  '*.uploadKeys',
  '*.evidenceUrlSecret',
  '*.totp',
];

/**
 * Request body limits, by route (a route that declares its own `bodyLimit` keeps it). The
 * routes anyone may call (sign-in, visit statistics, analytics events) take small JSON bodies; the signed-in API
 * takes at most 1 MiB of JSON. Files never come as parsed bodies: the order import and the
 * embedded upload host read their streams and enforce their own size limits.
 */
export const PUBLIC_BODY_LIMIT = 16 * 1024;
export const API_BODY_LIMIT = 1024 * 1024;

const ajvCompilers = AjvCompiler();

/**
 * Query strings, params and headers are text, so they are coerced to their schema types
 * ("5" → 5). JSON bodies already carry types: coercing them would read `null` as 0 or ""
 * (a missing result recorded as "normal"), so bodies are validated without coercion.
 */
const buildStrictBodyValidator: typeof ajvCompilers = (externalSchemas, options) => {
  const coercing = ajvCompilers(externalSchemas, options);
  // The app never uses JTD mode: its options are plain Ajv options.
  const ajvOptions = options as { customOptions?: Record<string, unknown> } | undefined;
  const strict = ajvCompilers(externalSchemas, {
    ...ajvOptions,
    customOptions: { ...ajvOptions?.customOptions, coerceTypes: false },
  } as typeof options);
  return (route) =>
    (route as unknown as { httpPart?: string }).httpPart === 'body'
      ? withValueRules(strict(route), false)
      : withValueRules(coercing(route), true);
};

const serializerSelector = SerializerSelector();
/** Compiled response serializers, per shared-schema set and options, per response schema object. */
const serializerPools = new Map<string, WeakMap<object, ReturnType<ReturnType<typeof serializerSelector>>>>();

/**
 * Response serializers compiled once per schema in a process, as the validators are (one Ajv
 * pool above, which caches by schema): fast-json-stringify compiled every response schema of
 * every route again for each app built, about 0.7 s of CPU per app, paid by every server test
 * file (the suites build some 70 apps per database). The routes' schemas are the contract's
 * module-level objects, the same for every app; a serializer depends on its schema and the
 * options alone. One app per process in production: there it changes nothing.
 */
const buildPooledSerializer: typeof serializerSelector = (externalSchemas, options) => {
  const compile = serializerSelector(externalSchemas, options);
  const key = JSON.stringify([externalSchemas, options ?? null]);
  let pool = serializerPools.get(key);
  if (pool === undefined) serializerPools.set(key, (pool = new WeakMap()));
  const compiled = pool;
  return (route) => {
    const schema = route.schema as object;
    const known = compiled.get(schema);
    if (known !== undefined) return known;
    const serializer = compile(route);
    compiled.set(schema, serializer);
    return serializer;
  };
};

/** A compiled Ajv validator as Fastify calls it: true or false, the errors on the function. */
type CompiledValidator = ((data: unknown) => boolean) & { errors?: unknown[] | null };

const MAX_RULE_DEPTH = 16;

/** The first value breaking the rules below: where (JSON pointer) and which rule, or undefined. */
function brokenRuleAt(value: unknown, numbers: boolean, path = '', depth = 0): { at: string; keyword: 'finite' | 'nul' } | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? { at: path, keyword: 'nul' } : undefined;
  if (typeof value === 'number') return numbers && !Number.isFinite(value) ? { at: path, keyword: 'finite' } : undefined;
  // Typed fields are shallow; only a free-form JSON field (an event's data) nests deeper, and is stored as escaped JSON.
  if (value === null || typeof value !== 'object' || depth >= MAX_RULE_DEPTH) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = brokenRuleAt(item, numbers, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Two rules no schema states, checked after it passes (decision 0102):
 * - text coerced to a number must be finite: "Infinity" and "1e400" came out infinite and Ajv
 *   then skipped the field's minimum and maximum (checked for finite numbers only), so
 *   `?page=Infinity` reached the database as LIMIT Infinity, a 500;
 * - no text carries NUL (U+0000): PostgreSQL refuses it in a text value (a 500 on a filter or a
 *   write), SQLite and MySQL keep it; refused alike on every database.
 */
function withValueRules<V extends CompiledValidator>(validate: V, numbers: boolean): V {
  const checked: CompiledValidator = (data) => {
    const valid = validate(data);
    checked.errors = validate.errors;
    if (!valid) return false;
    const broken = brokenRuleAt(data, numbers);
    if (broken === undefined) return true;
    checked.errors = [{ keyword: broken.keyword, instancePath: broken.at, schemaPath: '', params: {}, message: broken.keyword }];
    return false;
  };
  // Ajv's own properties (schema, schemaEnv) stay readable on the wrapper.
  return Object.assign(checked, validate, { errors: null }) as unknown as V;
}

/**
 * The whole app, without listening. Plugin order matters: the error handler first (so it
 * covers everything), security headers and CORS (whose preflight answers before any access
 * rule), then the access-rule guard (so it sees every later route), the
 * operation log (which also checks every later route declares how it is logged), the
 * OpenAPI collector (before the routes it documents), the API, the embedded upload host, and
 * last the SPA catch-all.
 */
export async function buildApp({ config, db, logger }: AppDeps) {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    // The peer and the hops behind it up to TRUST_PROXY's count, never everything: with `true`
    // Fastify takes the left-most X-Forwarded-For entry, which the client writes itself (a
    // proxy appends to what it was sent). A plain number would trust nothing (Fastify 5).
    trustProxy: config.trustProxy > 0 ? (_address: string, hop: number) => hop < config.trustProxy : false,
    // A bounded process: a request must arrive whole in time, a silent connection is closed,
    // and so is an idle keep-alive one. On close, idle connections are ended at once and new
    // requests on busy ones get 503 (Fastify's defaults); server.ts bounds the rest.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Request deadlines are checked every second rather than every 30 s (Node's default): a slow
    // client is cut within a second of REQUEST_TIMEOUT_SECONDS (reliability/slow-clients.test.ts).
    http: { connectionsCheckingInterval: CONNECTIONS_CHECK_MS },
    bodyLimit: API_BODY_LIMIT,
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Each request's logger (bound to its id) is made at its first line at an enabled level.
    childLoggerFactory: lazyRequestLogger,
    ajv: {
      customOptions: {
        // Unknown fields are stripped where the schema says additionalProperties: false
        // (every contract request body does); query strings are coerced to their types.
        removeAdditional: true,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: false,
      },
    },
    schemaController: { compilersFactory: { buildValidator: buildStrictBodyValidator, buildSerializer: buildPooledSerializer } },
    // A URL Fastify cannot route (bad percent-encoding) answers in the app's formats too.
    frameworkErrors: frameworkError(LOCAL_UPLOAD_PREFIX),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Requests start in slices of the event loop, so a busy server still accepts new
  // connections (http/admission.ts, decision 0099).
  app.addHook('onRequest', admitInTurn);
  // A body trickled in past REQUEST_TIMEOUT_SECONDS is cut (Node cuts only slow headers).
  app.addHook('onRequest', bodyDeadline(config.requestTimeoutMs));
  // Every answer carries the security headers (computed once, plugins/security.ts) and the
  // request id, set together in the first hook (decision 0058).
  const headers = securityHeaders(config);
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(headers).header(REQUEST_ID_HEADER, request.id);
    done();
  });
  listApiRoutes(app, DOCS_PREFIX);
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined || !route.url.startsWith('/api/')) return;
    route.bodyLimit = route.config?.auth === 'user' ? API_BODY_LIMIT : PUBLIC_BODY_LIMIT;
  });

  await app.register(errorsPlugin);
  await app.register(securityPlugin, { config });
  await app.register(authPlugin, { db });
  await app.register(operationLogPlugin, { db });
  await app.register(swaggerPlugin);
  await registerRoutes(app, { db, config });
  if (config.uploads.provider === 'local') {
    // The embedded image store speaks the provider's upload protocol (see modules/uploads).
    await app.register(localUploadHost, {
      prefix: LOCAL_UPLOAD_PREFIX,
      dataDir: config.dataDir,
      uploadsDir: config.uploadsDir,
      alone: config.instances === 'single',
      maxImageBytes: config.uploads.maxImageBytes,
      bucket: LOCAL_BUCKET,
      ...resolveUploadKeys(config.dataDir, config.uploads.uploadKeys),
      evidenceUrlSecret: resolveEvidenceUrlSecret(config.dataDir, config.uploads.evidenceUrlSecret),
    });
  }
  await app.register(spaPlugin, { webDist: config.webDist, publicUrl: config.publicUrl });
  await app.ready();
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
