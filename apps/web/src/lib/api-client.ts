import type { ApiEnvelope, BodyOf, Endpoint, EndpointSchemas, ParamsOf, QueryOf, ResponseOf } from '@clearplay/contract';
import { fillPath, IDEMPOTENCY_HEADER, SESSION_ENDED_STATUSES, Status } from '@clearplay/contract/constants';
import { i18n, currentLocale } from './i18n.ts';
import { getToken } from './storage.ts';
import { showSessionEndedDialog, toastError } from './feedback.ts';

/**
 * The one API client (docs/product.md "The back office"). Every call goes to /api with the bearer token and the
 * current language, reads the `{status, msg, data}` envelope whatever the HTTP status is,
 * and applies the error catalogue:
 *
 * - body status != 200: error toast (server msg or "Error") for 5 s, and the call rejects
 *   with an ApiError;
 * - 401: go to the root path "/";
 * - 50008 / 50012 / 50014: the "You have been logged out" dialog with Re-Login (one at a
 *   time), except for the user-info call;
 * - network failure or a non-JSON body: toast with the error message or "Request Error"
 *   for 5 s, and the call rejects with a TransportError;
 * - a call its caller cancelled (signal aborted, even while the body was being read): no
 *   toast, the call rejects with the AbortError.
 */

export const API_BASE = '/api';

/** A call answered with a body status other than 200. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
}

/** The call never got an envelope back (network down, proxy error page, ...). */
export class TransportError extends Error {
  override readonly name = 'TransportError';
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  params?: Record<string, QueryValue | readonly QueryValue[]>;
  body?: unknown;
  signal?: AbortSignal;
  /**
   * How session errors are handled:
   * - 'default': the catalogue above;
   * - 'guard': the call is part of the session life cycle (user info, login, logout): its
   *   caller handles 401 and 50008/50012/50014 itself, so no redirect and no dialog.
   *   The error toast still shows.
   */
  session?: 'default' | 'guard';
  /**
   * Fire-and-forget calls (tracking): no error toasts. Session errors are still handled
   * (401 to root, the logged-out dialog), since they tell the user something true.
   */
  quiet?: boolean;
  /**
   * The request outlives the page (fetch keepalive, like sendBeacon but with our headers, so the
   * bearer token still goes along): tracking calls, which must never hold navigation up.
   */
  keepalive?: boolean;
  /**
   * The call that ends the session (logout): the one call still sent with a token this client is
   * ending (see `sessionEnding`); every other call with that token is not sent at all.
   */
  endsSession?: boolean;
  /**
   * Sent as the `Idempotency-Key` header, on the calls declared `idempotent` (decision 0109): one
   * key per submission (lib/submission-key.ts), so the same submission sent again is recorded once.
   */
  idempotencyKey?: string;
}

/** What the app plugs in at start (lib must not import the router or the auth feature). */
export interface ApiClientHooks {
  /** Spec §8: 401 goes back to the root path. */
  goToRoot: () => void;
  /** Re-Login: log out (whatever the server says), then reload the page. */
  relogin: () => Promise<void>;
}

let hooks: ApiClientHooks = {
  goToRoot: () => window.location.assign('/'),
  relogin: async () => window.location.reload(),
};

export function configureApiClient(next: Partial<ApiClientHooks>): void {
  hooks = { ...hooks, ...next };
}

let sessionDialogOpen = false;

/** The token of the session this client is ending (logout): a 401 for it is expected, not news. */
let endingToken: string | null = null;

/** Logout calls this before it asks the server to end the session (app/session.ts). */
export function sessionEnding(token: string | null): void {
  endingToken = token;
}

/**
 * A 401 that is not news: the call carried no token (a screen still mounted at logout fetched
 * again after the token was cleared), or a token this client is ending or no longer holds
 * (logged out, or signed in again). Calls in flight at logout answer so; sending the page to
 * the root then would take the user away from the login page they were just sent to. A
 * stranger needs no redirect from here: the route guards send them to sign in.
 */
const isStale = (sent: string | null): boolean => sent === null || sent === endingToken || sent !== getToken();

async function openSessionEndedDialog(): Promise<void> {
  if (sessionDialogOpen) return;
  sessionDialogOpen = true;
  try {
    await showSessionEndedDialog({
      onRelogin: () => hooks.relogin(),
      onClose: () => {
        sessionDialogOpen = false;
      },
    });
  } catch (error) {
    sessionDialogOpen = false;
    throw error;
  }
}

function buildUrl(path: string, params: RequestOptions['params']): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, raw] of Object.entries(params)) {
    const values = Array.isArray(raw) ? raw : [raw];
    for (const value of values as QueryValue[]) {
      if (value === undefined || value === null || value === '') continue;
      search.append(key, String(value));
    }
  }
  const query = search.toString();
  return query ? `${url}?${query}` : url;
}

function isEnvelope(value: unknown): value is ApiEnvelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'number';
}

/**
 * The token a call goes with. Nothing is asked for a session being ended: a call carrying that
 * token (a poll, a refetch, the visit record of the route change to /login) would only answer 401
 * (a console error each); it rejects at once as cancelled (AbortError: no toast), unsent. The
 * call that ends the session is the exception.
 */
function tokenFor(path: string, options: RequestOptions): string | null {
  const token = getToken();
  if (token !== null && token === endingToken && !options.endsSession) throw new DOMException('The session is ending', 'AbortError');
  if (token === null && endingToken !== null && options.session !== 'guard' && needsSession(path)) {
    // Signed out by this client, not signed in again: a screen still mounted while the page
    // leaves for /login fetches again once the cache is cleared; without a session it can only
    // answer 401.
    throw new DOMException('Signed out', 'AbortError');
  }
  return token;
}

/** The signed-in API (the admin calls and the server menu); sign-in is a 'guard' call. */
const needsSession = (path: string): boolean => /^\/?(admin\/|menu\b)/.test(path);

/** `token`: the one the call is sent with, read once per call (a 401 is judged against it, isStale). */
function buildHeaders(accept: string, token: string | null): Record<string, string> {
  const headers: Record<string, string> = { Accept: accept, 'Accept-Language': currentLocale() };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

function transportFailure(error: unknown, options: RequestOptions): Error {
  // Cancelled by its caller (a refetch, a screen left): not a failure to tell anyone about.
  if (isAbort(error)) return error as DOMException;
  if (options.signal?.aborted)
    return options.signal.reason instanceof Error ? options.signal.reason : new DOMException('Aborted', 'AbortError');
  const message = error instanceof Error && error.message ? error.message : i18n.t('request.transportError');
  if (!options.quiet) toastError(message);
  return error instanceof TransportError ? error : new TransportError(message, { cause: error });
}

/** The error catalogue for an envelope whose status is not 200. */
function envelopeFailure(envelope: ApiEnvelope<unknown>, options: RequestOptions, sent: string | null): ApiError {
  const { status, msg, data } = envelope;
  const stale = status === Status.UNAUTHORIZED && isStale(sent);
  if (!options.quiet && !stale) toastError(msg || i18n.t('request.error'));
  if (options.session !== 'guard' && !stale) {
    if (status === Status.UNAUTHORIZED) hooks.goToRoot();
    else if (SESSION_ENDED_STATUSES.includes(status)) void openSessionEndedDialog();
  }
  return new ApiError(status, msg || i18n.t('request.error'), data);
}

/**
 * What a call answered without an envelope failed with. A 503 is the service briefly unavailable
 * (a proxy's page while the server restarts, or the server closing): said so, in the user's language.
 */
const noEnvelope = (response: Response): TransportError =>
  new TransportError(response.status === 503 ? i18n.t('request.unavailable') : `${response.status} ${response.statusText}`.trim());

async function readEnvelope(response: Response): Promise<ApiEnvelope<unknown>> {
  // 204 is success without a body by definition (the API itself always sends the envelope).
  if (response.status === 204) return { status: Status.OK, msg: 'ok', data: null };
  // Non-2xx answers still carry the envelope: read it whenever the body is JSON. A body cut off
  // by the caller's abort (headers read, "200 OK") is a cancelled call, not a broken answer.
  const envelope: unknown = await response.json().catch((error: unknown) => {
    if (isAbort(error)) throw error;
    throw noEnvelope(response);
  });
  if (!isEnvelope(envelope)) throw noEnvelope(response);
  return envelope;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const sent = tokenFor(path, options);
  const headers = buildHeaders('application/json', sent);
  if (options.idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = options.idempotencyKey;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let envelope: ApiEnvelope<unknown>;
  try {
    const response = await fetch(buildUrl(path, options.params), {
      method,
      headers,
      body,
      signal: options.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
    envelope = await readEnvelope(response);
  } catch (error) {
    throw transportFailure(error, options);
  }
  if (envelope.status === Status.OK) return envelope.data as T;
  throw envelopeFailure(envelope, options, sent);
}

/** What a conditional GET answers: the data and its version, or "not modified" (304). */
export type Revalidated<T> = { changed: true; data: T; etag: string | null } | { changed: false };

/**
 * A conditional GET (a poll): sends If-None-Match with the version last seen; a 304 answers
 * `{ changed: false }` without a body, anything else goes through the envelope and the error
 * catalogue like `request`.
 */
export async function getIfChanged<T>(
  path: string,
  etag: string | null,
  options: Omit<RequestOptions, 'body'> = {},
): Promise<Revalidated<T>> {
  const sent = tokenFor(path, options);
  const headers = buildHeaders('application/json', sent);
  if (etag !== null) headers['If-None-Match'] = etag;
  let envelope: ApiEnvelope<unknown>;
  let version: string | null;
  try {
    const response = await fetch(buildUrl(path, options.params), { method: 'GET', headers, signal: options.signal, cache: 'no-store' });
    if (response.status === 304) return { changed: false };
    version = response.headers.get('ETag');
    envelope = await readEnvelope(response);
  } catch (error) {
    throw transportFailure(error, options);
  }
  if (envelope.status === Status.OK) return { changed: true, data: envelope.data as T, etag: version };
  throw envelopeFailure(envelope, options, sent);
}

/** The file name of a Content-Disposition header (RFC 6266 `filename*` first). */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1];
}

export interface DownloadResult {
  blob: Blob;
  fileName: string;
}

/**
 * A GET answered with a file (export, template, ZIP). A JSON answer is an envelope and goes
 * through the same error catalogue as every other call; anything else is the file.
 */
export async function fetchFile(path: string, options: Omit<RequestOptions, 'body'> & { fallbackName: string }): Promise<DownloadResult> {
  const sent = tokenFor(path, options);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.params), { method: 'GET', headers: buildHeaders('*/*', sent), signal: options.signal });
  } catch (error) {
    throw transportFailure(error, options);
  }
  if ((response.headers.get('Content-Type') ?? '').includes('application/json')) {
    let envelope: ApiEnvelope<unknown>;
    try {
      envelope = await readEnvelope(response);
    } catch (error) {
      throw transportFailure(error, options);
    }
    throw envelopeFailure(envelope, options, sent);
  }
  if (!response.ok) throw transportFailure(noEnvelope(response), options);
  const blob = await response.blob();
  return { blob, fileName: fileNameOf(response.headers.get('Content-Disposition')) ?? options.fallbackName };
}

/** Saves a blob through a temporary link (the browser's own download). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

type ParamsInput<E> = [ParamsOf<E>] extends [never] ? { params?: never } : { params: ParamsOf<E> };
type QueryInput<E> = [QueryOf<E>] extends [never]
  ? { query?: never }
  : object extends QueryOf<E>
    ? { query?: QueryOf<E> }
    : { query: QueryOf<E> };
type BodyInput<E> = [BodyOf<E>] extends [never] ? { body?: never } : { body: BodyOf<E> };

/**
 * What a call of a declared endpoint takes: its path parameters, query and body as the
 * contract declares them, and the options of any call (signal, session, quiet, …).
 */
export type CallInput<E> = ParamsInput<E> & QueryInput<E> & BodyInput<E> & Omit<RequestOptions, 'params' | 'body'>;

/**
 * Calls a declared endpoint (decision 0096): `api.call(dictEndpoints.typeList, { query, signal })`.
 * Method and path come from the declaration, `:name` segments from `params`; the answer is
 * typed by the declaration's response schema. Same envelope and error catalogue as `request`.
 */
function call<E extends Endpoint>(
  endpoint: E,
  ...[input]: object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]
): Promise<ResponseOf<E>> {
  const { params, query, body, ...options } = (input ?? {}) as RequestOptions & { query?: RequestOptions['params'] };
  const path = fillPath(endpoint.path, params as Record<string, string | number> | undefined);
  return request<ResponseOf<E>>(endpoint.method, path, { ...options, params: query, body });
}

/**
 * A conditional GET (a poll) of a declared endpoint: `getIfChanged` with the declaration's
 * path and answer type.
 */
function callIfChanged<E extends Endpoint<'GET'>>(
  endpoint: E,
  etag: string | null,
  ...[input]: object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]
): Promise<Revalidated<ResponseOf<E>>> {
  const { params, query, body: _body, ...options } = (input ?? {}) as RequestOptions & { query?: RequestOptions['params'] };
  return getIfChanged<ResponseOf<E>>(fillPath(endpoint.path, params as Record<string, string | number> | undefined), etag, {
    ...options,
    params: query,
  });
}

/** A declared endpoint answered with a file (`response: 'file'`). */
export type FileEndpoint = Endpoint<'GET', string, EndpointSchemas & { response: 'file' }>;

/**
 * Fetches the file a declared endpoint answers and saves it under the server's file name
 * (`fallbackName` when it sends none): `api.download(orderEndpoints.export, { query, fallbackName })`.
 * A JSON answer is an envelope and goes through the error catalogue like every other call.
 */
async function download<E extends FileEndpoint>(endpoint: E, input: CallInput<E> & { fallbackName: string }): Promise<string> {
  const { params, query, body: _body, ...options } = input as RequestOptions & { query?: RequestOptions['params']; fallbackName: string };
  const { blob, fileName } = await fetchFile(fillPath(endpoint.path, params as Record<string, string | number> | undefined), {
    ...options,
    params: query,
  });
  saveBlob(blob, fileName);
  return fileName;
}

export const api = {
  call,
  callIfChanged,
  download,
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('DELETE', path, options),
};
