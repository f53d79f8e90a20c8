import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AjvCompiler } from '@fastify/ajv-compiler';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { AppConfig } from './config.ts';
import type { Db } from './db/index.ts';
import { listApiRoutes } from './http/endpoint.ts';
import authPlugin, { DOCS_PREFIX } from './plugins/auth.ts';
import errorsPlugin from './plugins/errors.ts';
import operationLogPlugin from './plugins/operation-log.ts';
import securityPlugin, { securityHeaders } from './plugins/security.ts';
import spaPlugin from './plugins/spa.ts';
import swaggerPlugin from './plugins/swagger.ts';
import localUploadHost from './modules/uploads/local-host.ts';
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
  return (route) => ((route as unknown as { httpPart?: string }).httpPart === 'body' ? strict : coercing)(route);
};

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
    trustProxy: config.trustProxy,
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
    schemaController: { compilersFactory: { buildValidator: buildStrictBodyValidator } },
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
