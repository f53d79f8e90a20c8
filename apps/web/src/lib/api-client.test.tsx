// In the components project (jsdom): the client runs against window, storage and the toasts.
import { screen } from '@testing-library/react';
import { dictEndpoints } from '@clearplay/contract/constants';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../test/fake-api.ts';
import { api, configureApiClient, sessionEnding } from './api-client.ts';
import { removeToken, setToken } from './storage.ts';

/** Spec §8: a 401 sends the page to the root, unless it answers no session or one this client has already left. */
describe('a 401', () => {
  const goToRoot = vi.fn();
  configureApiClient({ goToRoot });
  afterEach(() => {
    goToRoot.mockReset();
    sessionEnding(null);
    removeToken();
  });

  /** Serves a 401 once `release` is called, so the test can act while the call is in flight. */
  const unauthorizedWhenReleased = () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    serveApi(async () => {
      await gate;
      return { status: 401, msg: '未登录', data: null };
    });
    return () => release();
  };

  it('for the current session goes to the root', async () => {
    setToken('live-token');
    const release = unauthorizedWhenReleased();
    const call = api.get('/admin/message/unread');
    release();
    await expect(call).rejects.toMatchObject({ status: 401 });
    expect(goToRoot).toHaveBeenCalledTimes(1);
  });

  it('for a call still in flight when the user logged out goes nowhere', async () => {
    setToken('old-token');
    const release = unauthorizedWhenReleased();
    const call = api.get('/admin/message/unread');
    removeToken(); // logout cleared the session, the app is on /login
    release();
    await expect(call).rejects.toMatchObject({ status: 401 });
    expect(goToRoot).not.toHaveBeenCalled();
  });

  it('for a call sent without a token (a screen left behind after logout refetching) goes nowhere', async () => {
    removeToken();
    const release = unauthorizedWhenReleased();
    const call = api.get('/admin/menu');
    release();
    await expect(call).rejects.toMatchObject({ status: 401 });
    expect(goToRoot).not.toHaveBeenCalled();
  });

  it('for the session being ended (logout sent, token not yet cleared) goes nowhere', async () => {
    setToken('ending-token');
    const release = unauthorizedWhenReleased();
    const call = api.get('/admin/message/unread');
    sessionEnding('ending-token');
    release();
    await expect(call).rejects.toMatchObject({ status: 401 });
    expect(goToRoot).not.toHaveBeenCalled();
  });
});

/**
 * A shop clicked an unread item in the bell: the item opened and a red "200 OK" toast showed.
 * Marking it read refetches the open lists, which cancels the ones in flight; one whose answer
 * had begun (200 OK) but whose body was still coming rejected on the abort, and the client took
 * that for a body that was not the envelope.
 */
describe('a call cancelled while its answer is being read', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('rejects as cancelled and shows no "200 OK" error toast', async () => {
    vi.stubGlobal('fetch', async (_input: RequestInfo | URL, init: RequestInit = {}) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"status":200,"msg":"ok","data":{"list":['));
          init.signal?.addEventListener('abort', () => controller.error(new DOMException('The operation was aborted.', 'AbortError')));
        },
      });
      return new Response(body, { status: 200, statusText: 'OK', headers: { 'Content-Type': 'application/json' } });
    });
    const controller = new AbortController();
    const call = api.get('/admin/message/list', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });

    // A later failure's toast shows, so any toast of the cancelled call would have shown by now.
    serveApi(() => ({ status: 500, msg: '服务器开小差了', data: null }));
    await expect(api.get('/admin/message/list')).rejects.toMatchObject({ status: 500 });
    expect(await screen.findByText('服务器开小差了')).toBeTruthy();
    expect(screen.queryByText('200 OK')).toBeNull();
  });
});

/** No route answers 204 today (the server test envelope-routes checks it); if one does, it is a success. */
describe('an empty success', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('a 204 No Content is a success with no data, not a "204 No Content" error', async () => {
    vi.stubGlobal('fetch', async () => new Response(null, { status: 204, statusText: 'No Content' }));
    await expect(api.post('/admin/message/read', { ids: [1] })).resolves.toBeNull();
    serveApi(() => ({ status: 500, msg: '服务器忙，请稍后再试', data: null }));
    await expect(api.get('/admin/message/list')).rejects.toMatchObject({ status: 500 });
    expect(await screen.findByText('服务器忙，请稍后再试')).toBeTruthy();
    expect(screen.queryByText('204 No Content')).toBeNull();
  });
});

/**
 * Each logout fired three calls (the visit record of the route change, the unread poll, the
 * order list) with the session being ended; each answered 401 and was logged as a console error.
 */
describe('a session being ended', () => {
  afterEach(() => {
    sessionEnding(null);
    removeToken();
    vi.unstubAllGlobals();
  });

  it('sends nothing more with its token but the call that ends it', async () => {
    setToken('ending-token');
    const { calls } = serveApi(() => ({ status: 200, msg: 'ok', data: null }));
    sessionEnding('ending-token');
    await expect(api.get('/admin/order/list')).rejects.toMatchObject({ name: 'AbortError' });
    await expect(api.post('/visit-stats/create', { path: '/login' }, { quiet: true, keepalive: true })).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(api.get('/admin/user/logout', { session: 'guard', endsSession: true })).resolves.toBeNull();
    expect(calls.map((c) => c.path)).toEqual(['/api/admin/user/logout']);
  });

  it('once signed out, sends no signed-in call without a token; sign-in and the public pages still call', async () => {
    setToken('ended-token');
    const { calls } = serveApi(() => ({ status: 200, msg: 'ok', data: null }));
    sessionEnding('ended-token');
    removeToken(); // logout cleared the session; the screens being left refetch
    await expect(api.get('/admin/order/list')).rejects.toMatchObject({ name: 'AbortError' });
    await expect(api.get('/admin/message/unread', { quiet: true })).rejects.toMatchObject({ name: 'AbortError' });
    await expect(api.post('/menu')).rejects.toMatchObject({ name: 'AbortError' });
    await expect(api.get('/public/links', { quiet: true })).resolves.toBeNull();
    await expect(api.post('/admin/user/login', { username: 'a', password: 'b' }, { session: 'guard' })).resolves.toBeNull();
    expect(calls.map((c) => c.path)).toEqual(['/api/public/links', '/api/admin/user/login']);
  });

  it('leaves the next session free to call', async () => {
    const { calls } = serveApi(() => ({ status: 200, msg: 'ok', data: null }));
    sessionEnding('old-token');
    setToken('new-token');
    await expect(api.get('/admin/order/list')).resolves.toBeNull();
    expect(calls).toHaveLength(1);
  });
});

/** A declared endpoint is called by name: method and path from the declaration, `:name` segments filled in. */
describe('api.call', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    removeToken();
  });

  it('sends the declared method and path, with the path parameters encoded and the query', async () => {
    setToken('live-token');
    const { calls } = serveApi(() => ({ status: 200, msg: 'ok', data: { list: [], total: 0 } }));
    const page = await api.call(dictEndpoints.dataList, { params: { type: 'a/b c' }, query: { page: 2, label: '' } });
    expect(page).toEqual({ list: [], total: 0 });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('GET');
    expect(calls[0]?.path).toBe('/api/admin/dict/data/a%2Fb%20c');
    expect(calls[0]?.query.toString()).toBe('page=2');
  });

  it('sends the body as JSON with the declared method', async () => {
    setToken('live-token');
    const { calls } = serveApi(() => ({ status: 200, msg: 'ok', data: null }));
    await api.call(dictEndpoints.deleteType, { params: { id: 7 } });
    await api.call(dictEndpoints.updateType, { body: { id: 7, code: 'game', name: '游戏' } });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /api/admin/dict/type/7', 'PUT /api/admin/dict/type']);
    expect(calls[1]?.body).toEqual({ id: 7, code: 'game', name: '游戏' });
  });
});
