/**
 * Request ids, and the request a failure nobody caught came from.
 *
 * An id is unique across processes: a well-formed incoming `X-Request-Id` (a proxy's or a
 * caller's, so one id follows a call through every hop) is kept, anything else is replaced by
 * a random UUID. The app echoes it in the `X-Request-Id` response header, and Fastify puts it in
 * every log line of the request (`reqId`).
 *
 * Work a request starts and does not wait for is tagged with the request's id: a promise left
 * running (`detach`, where `void` would stand) and a callback run later (`inRequest`: a timer,
 * an event). Should that work fail with nobody to catch it, lib/process.ts logs the failure
 * with the id of the request it came from. Everything a request awaits fails into Fastify's
 * error handler, which logs it with the id already. (Decision 0057: an AsyncLocalStorage
 * context around every request did this implicitly, at the price of a hook on every promise the
 * process creates; detached work is explicit since no-floating-promises forces `void`.)
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Printable, no spaces or quotes, at most 128 characters: safe in a header and a log line. */
const WELL_FORMED = /^[\w.:@/+=-]{1,128}$/;

export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && WELL_FORMED.test(incoming) ? incoming : randomUUID();
}

/** Tagged promises and thrown errors, by the id of the request whose work they are. */
const origins = new WeakMap<object, string>();
/** A thrown non-object cannot be a WeakMap key: the last one thrown in tagged work. */
let lastThrownValue: { value: unknown; requestId: string } | undefined;

/**
 * Leaves `work` running without waiting for it, tagged with the request's id: if it rejects
 * and nobody listens, the process logs the rejection with that id before it exits. Pass the
 * promise that ends the chain (the one `void` would have been applied to).
 */
export function detach(requestId: string, work: Promise<unknown>): void {
  origins.set(work, requestId);
}

/**
 * `callback`, to be run later outside the request (a timer, an event listener), tagged with the
 * request's id: an exception it throws still reaches the process's handler, which logs it
 * with that id.
 */
export function inRequest<A extends unknown[]>(requestId: string, callback: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      callback(...args);
    } catch (error) {
      if (typeof error === 'object' && error !== null) origins.set(error, requestId);
      else lastThrownValue = { value: error, requestId };
      throw error;
    }
  };
}

/** The id of the request whose tagged work failed with `error` (rejecting `promise`), if any. */
export function requestIdOfFailure(error: unknown, promise?: Promise<unknown>): string | undefined {
  const ofPromise = promise === undefined ? undefined : origins.get(promise);
  if (ofPromise !== undefined) return ofPromise;
  if (typeof error === 'object' && error !== null) return origins.get(error);
  return lastThrownValue !== undefined && Object.is(lastThrownValue.value, error) ? lastThrownValue.requestId : undefined;
}
