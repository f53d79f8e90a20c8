/**
 * A module registers a route from its contract declaration (decision 0096): `route(app,
 * dictEndpoints.typeList, handler)`. Method, path, access rule (`config.auth`,
 * `config.permission`), operation-log rule (`config.log`) and the OpenAPI schema (tags,
 * summary, security, params, querystring, body, the envelope of the answer) all come from the
 * declaration; the handler is the only thing the module adds, its request and answer typed by
 * the same schemas.
 */
import * as contract from '@clearplay/contract';
import type { BodyOf, Endpoint, EndpointSchemas, MultipartForm, ParamsOf, QueryOf, ResponseOf, SchemaKit } from '@clearplay/contract';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { ErrorEnvelope, responses } from '../lib/envelope.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The declaration the route was registered from (set by `route`; the drift test reads it). */
    endpoint?: Endpoint;
  }
  interface FastifyInstance {
    /** Every route registered under /api (the docs' aside), as registered (see `listApiRoutes`). */
    apiRoutes: readonly ApiRoute[];
  }
}

/** A route under /api as the app registered it, and the declaration it came from, if any. */
export interface ApiRoute {
  method: string;
  url: string;
  endpoint: Endpoint | undefined;
}

/**
 * Keeps the list of /api routes on `app.apiRoutes` (app.ts, before any route): the test that
 * holds declarations and routes together, and the authorization matrix, read it.
 */
export function listApiRoutes(app: AnyFastify, docsPrefix: string): void {
  const routes: ApiRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (options) => {
    if (!options.url.startsWith('/api/') || options.url === docsPrefix || options.url.startsWith(`${docsPrefix}/`)) return;
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    for (const method of methods) {
      if (method !== 'HEAD') routes.push({ method, url: options.url, endpoint: options.config?.endpoint });
    }
  });
}

const kit: SchemaKit = { ...contract, Type };
const resolved = new WeakMap<Endpoint, EndpointSchemas>();

/** A declaration's schemas, built once. */
export function schemasOf(declared: Endpoint): EndpointSchemas {
  let schemas = resolved.get(declared);
  if (schemas === undefined) {
    schemas = declared.schemas(kit);
    resolved.set(declared, schemas);
  }
  return schemas;
}

/** `never` (a part the call does not have) read as `unknown`. */
type Part<T> = [T] extends [never] ? unknown : T;
/** The body as the server sees it: a multipart one is read from the request's parts, not `request.body`. */
type BodyPart<E> = BodyOf<E> extends MultipartForm ? unknown : Part<BodyOf<E>>;

/** The request of a declared call: its params, query and body typed by the declaration. */
export type EndpointRequest<E> = FastifyRequest<{ Params: Part<ParamsOf<E>>; Querystring: Part<QueryOf<E>>; Body: BodyPart<E> }>;

/** What a handler answers: the envelope with the declared data, or the reply it sent itself (a file). */
export type EndpointAnswer<E> = { status: number; msg: string; data: ResponseOf<E> } | FastifyReply;

export type EndpointHandler<E> = (request: EndpointRequest<E>, reply: FastifyReply) => EndpointAnswer<E> | Promise<EndpointAnswer<E>>;

/** What only the server knows about a route (a rate limit, a body size): merged into its options. */
export interface RouteExtras {
  config?: Omit<FastifyContextConfig, 'auth' | 'permission' | 'log' | 'endpoint'>;
  bodyLimit?: number;
  /** Extra OpenAPI answers (a file route's 200: `fileAnswer(type, description)`). */
  response?: Record<string, unknown>;
}

/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- any type provider, server and logger */
type AnyFastify = FastifyInstance<any, any, any, any, any>;

const BEARER = [{ bearer: [] }];
/** A file route's error answers (its 200, the file, comes in `extras.response`). */
const FILE_ERRORS = { '4xx': ErrorEnvelope, '5xx': ErrorEnvelope };

/** A file route's 200 in the OpenAPI document: the bytes of this type (its errors are the envelope). */
export const fileAnswer = (type: string, description: string) => ({
  200: { description, content: { [type]: { schema: Type.Unsafe<Buffer | Readable>({ type: 'string', format: 'binary' }) } } },
});

/** The OpenAPI header of an idempotent call (decision 0109). */
const idempotencyHeader = () =>
  Type.Object({
    [contract.IDEMPOTENCY_HEADER.toLowerCase()]: Type.Optional(
      Type.String({
        description:
          'A key made once per submission (e.g. a UUID), 8–128 of A–Z a–z 0–9 - _ . : — the same request sent again with it within 24 h is answered again, not recorded twice',
      }),
    ),
  });

/** Registers the route of a declared endpoint with its handler. */
export function route<E extends Endpoint>(app: AnyFastify, declared: E, handler: EndpointHandler<E>, extras: RouteExtras = {}): void {
  const { method, path, access, log, summary, tag } = declared;
  const { params, query, body, response } = schemasOf(declared);
  app.route({
    method,
    url: path,
    config: {
      ...extras.config,
      auth: access.auth,
      ...(access.permission === undefined ? {} : { permission: access.permission }),
      ...(log === undefined ? {} : { log }),
      endpoint: declared,
    },
    ...(extras.bodyLimit === undefined ? {} : { bodyLimit: extras.bodyLimit }),
    schema: {
      tags: [tag],
      summary,
      ...(access.auth === 'user' ? { security: BEARER } : {}),
      ...(params === undefined ? {} : { params }),
      ...(query === undefined ? {} : { querystring: query }),
      // The key is checked by the route (a clear message for a malformed one, decision 0109); declared here for the document.
      ...(declared.idempotent === true ? { headers: idempotencyHeader() } : {}),
      // A multipart body is read by the handler itself (its parts, with their size limits).
      ...(body === undefined || body === 'multipart' ? {} : { body }),
      response: { ...(response === 'file' ? FILE_ERRORS : responses(response)), ...extras.response },
    },
    handler: handler as unknown as RouteHandlerMethod,
  });
}
