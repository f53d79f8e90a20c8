/**
 * Request ids and the request an asynchronous error came from.
 *
 * An id is unique across processes: a well-formed incoming `X-Request-Id` (a proxy's or a
 * caller's, so one id follows a call through every hop) is kept, anything else is replaced by
 * a random UUID. The app echoes it in the `X-Request-Id` response header, and Fastify puts it in
 * every log line of the request (`reqId`).
 *
 * Each request runs inside an AsyncLocalStorage context holding its id, so an error nobody
 * caught (an `uncaughtException` or `unhandledRejection` in code the request started) can still
 * be logged with the id of the request it came from (server.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Printable, no spaces or quotes, at most 128 characters: safe in a header and a log line. */
const WELL_FORMED = /^[\w.:@/+=-]{1,128}$/;

export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && WELL_FORMED.test(incoming) ? incoming : randomUUID();
}

const storage = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `next` (the rest of the request's hooks and handler) inside the request's context. */
export const runInRequest = (requestId: string, next: () => void): void => storage.run({ requestId }, next);

/** The id of the request whose work is running now, if any. */
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;
