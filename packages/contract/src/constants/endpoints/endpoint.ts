/**
 * An endpoint is declared once, here in the contract's plain part, and both sides are derived
 * from the declaration (decision 0096): the server registers its route from it
 * (`apps/server/src/http/endpoint.ts`, which builds the access rule, the operation-log rule and
 * the OpenAPI schema), and the web calls it by name (`api.call(dictEndpoints.typeList, …)`),
 * its request and answer types inferred from the same schemas.
 *
 * The schemas are TypeBox values, which must not reach the browser (decision 0026). So a
 * declaration names them through a function of the schema kit, `schemas: (s) => ({ query:
 * s.DictTypeListQuery, response: s.Page(s.DictTypeItem) })`: this file imports the schema
 * modules only as types, the server calls the function once with the real kit, and the web
 * never calls it (its types are all it reads).
 */
import type { Static, TSchema, Type } from 'typebox';
import type * as Schemas from '../../schemas.ts';
import type { Permission } from '../permissions.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a declaration's `schemas` function is given: every contract schema, and TypeBox's `Type`. */
export type SchemaKit = typeof Schemas & { Type: typeof Type };

/**
 * The schemas of one call. `response` is the envelope's `data`; `'file'` for a file answer (the
 * web saves it: `api.download`). `body: 'multipart'` for a form with a file (the web sends a
 * FormData; the server reads the parts itself).
 */
export interface EndpointSchemas {
  params?: TSchema;
  query?: TSchema;
  body?: TSchema | 'multipart';
  response: TSchema | 'file';
}

/** A multipart body as the web sends it (a browser FormData fits; the contract has no DOM types). */
export interface MultipartForm {
  append(name: string, value: unknown, fileName?: string): void;
}

/**
 * Whose records a call may touch:
 * - 'shared': data that belongs to no user (dictionaries, roles, published prices);
 * - 'own': only the caller's own (their profile, sessions, messages);
 * - 'any': any user's, for a role that holds the permission (user administration);
 * - 'scoped': the role decides: staff any, a shop its own (orders, ledgers).
 */
export type RecordScope = 'shared' | 'own' | 'any' | 'scoped';

/** Who may call an endpoint. */
export interface Access {
  /**
   * 'public': anyone; 'user': a live session; 'optional': anyone, but a bearer token, when
   * sent, must be a live session (tracking calls).
   */
  auth: 'public' | 'optional' | 'user';
  /** Required permission (implies auth 'user'); a list means any one of them. */
  permission?: Permission | readonly Permission[];
  records: RecordScope;
}

/** How a call appears in the operation log, or `false` for one that must not be recorded. */
export interface LogRule {
  module: string;
  action: string;
  /** The body field naming who acts when nobody is signed in (the login's attempted username). */
  operatorFromBody?: string;
}

export interface Endpoint<M extends HttpMethod = HttpMethod, P extends string = string, S extends EndpointSchemas = EndpointSchemas> {
  method: M;
  /** Below /api; `:name` segments are path parameters (`schemas.params`). */
  path: P;
  access: Access;
  /** Required for a call that changes data (POST/PUT/DELETE): the server refuses to start without it. */
  log?: LogRule | false;
  /**
   * The call honours an `Idempotency-Key` request header (decision 0109): the same request sent
   * again with the same key is answered again, not recorded twice. The web sends one per
   * submission (`idempotencyKey` of the call).
   */
  idempotent?: true;
  /** One line for the OpenAPI document. */
  summary: string;
  /** The OpenAPI group (the module's noun). */
  tag: string;
  schemas: (kit: SchemaKit) => S;
}

/** The request header of an idempotent call (decision 0109). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** What the header may hold: 8 to 128 letters, digits, "-", "_", ".", ":" (a UUID, a random base64url string). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;

/** Declares an endpoint (typed; the object is returned as it is). */
export const endpoint = <const M extends HttpMethod, const P extends string, S extends EndpointSchemas>(
  declaration: Endpoint<M, P, S>,
): Endpoint<M, P, S> => declaration;

type SchemasOf<E> = E extends Endpoint<HttpMethod, string, infer S> ? S : never;
type StaticAt<S, K extends keyof EndpointSchemas> = K extends keyof S ? (S[K] extends TSchema ? Static<S[K]> : never) : never;

/** The path parameters of a call (`never` when it has none). */
export type ParamsOf<E> = StaticAt<SchemasOf<E>, 'params'>;
/** The query string of a call (`never` when it has none). */
export type QueryOf<E> = StaticAt<SchemasOf<E>, 'query'>;
/** The body of a call (`never` when it has none; a FormData for a multipart one). */
export type BodyOf<E> = 'body' extends keyof SchemasOf<E>
  ? SchemasOf<E>['body'] extends 'multipart'
    ? MultipartForm
    : StaticAt<SchemasOf<E>, 'body'>
  : never;
/** The envelope's `data` of a call's answer. */
export type ResponseOf<E> = StaticAt<SchemasOf<E>, 'response'>;

/** The `:name` segments of a path. */
export const pathParamNames = (path: string): string[] =>
  [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] as string);

/** A path with its `:name` segments filled in (each value URI-encoded). */
export function fillPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${path}: no value for the path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
