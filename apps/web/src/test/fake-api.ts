// The server's side of the network for the component tests: `fetch` answers like the API
// does (the `{status, msg, data}` envelope), so the app's own API client runs unchanged.
import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  /** Without the query string, e.g. '/api/admin/users'. */
  path: string;
  query: URLSearchParams;
  body: unknown;
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
    const call: ApiCall = { method: init.method ?? 'GET', path: url.pathname, query: url.searchParams, body };
    calls.push(call);
    const envelope = await answer(call);
    return new Response(JSON.stringify(envelope), {
      status: envelope.status === 200 ? 200 : envelope.status >= 100 && envelope.status < 600 ? envelope.status : 200,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
  });
  return { calls };
}
