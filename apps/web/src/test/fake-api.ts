// The server's side of the network for the component tests: `fetch` answers like the API
// does (the `{status, msg, data}` envelope), so the app's own API client runs unchanged.
import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  /** Without the query string, e.g. '/api/admin/users'. */
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** The request's headers, names in lower case. */
  headers: Record<string, string>;
}

export interface ApiAnswer {
  status: number;
  msg: string;
  data: unknown;
}

/** Answers every `fetch` with `answer(call)`, records the calls. Undone after the test (unstubGlobals). */
export function serveApi(answer: (call: ApiCall) => ApiAnswer | Promise<ApiAnswer>): { calls: ApiCall[] } {
  const calls: ApiCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input), window.location.href);
    init.signal?.throwIfAborted();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
    const headers = Object.fromEntries([...new Headers(init.headers).entries()]);
    const call: ApiCall = { method: init.method ?? 'GET', path: url.pathname, query: url.searchParams, body, headers };
    calls.push(call);
    const envelope = await answer(call);
    return new Response(JSON.stringify(envelope), {
      status: envelope.status === 200 ? 200 : envelope.status >= 100 && envelope.status < 600 ? envelope.status : 200,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
  });
  return { calls };
}

/**
 * A fake API whose first `drops` calls lose their answer (the network fails: fetch rejects), the
 * rest answer 200 with `data` (the lost answer of a create: decision 0109's retries).
 */
export function serveApiDropping(drops: number, data: unknown = null): { calls: ApiCall[] } {
  let left = drops;
  return serveApi(() => {
    if (left > 0) {
      left -= 1;
      throw new TypeError('Failed to fetch');
    }
    return { status: 200, msg: 'ok', data };
  });
}

/** The Idempotency-Key a call was sent with, if any. */
export const idempotencyKeyOf = (call: ApiCall | undefined): string | undefined => call?.headers['idempotency-key'];
