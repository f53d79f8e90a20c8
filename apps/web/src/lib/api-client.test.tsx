// In the components project (jsdom): the client runs against window, storage and the toasts.
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
