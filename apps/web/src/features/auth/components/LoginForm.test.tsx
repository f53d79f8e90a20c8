import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../../lib/i18n.ts';
import { serveApi, type ApiAnswer } from '../../../test/fake-api.ts';
import { renderLogin } from '../test/render-login.tsx';

/**
 * Each failed sign-in showed the generic error above the real reason, and the same reason again
 * as a toast, stacking up with every try. One failure, one message: the reason, or the spec's
 * text (§5) when there is none.
 */
const GENERIC = '登录出错，请刷新重试';

/** An answer the test gives when it chooses: the time a call takes, without waiting on a clock. */
function held() {
  let give: (answer: ApiAnswer) => void = () => undefined;
  const answer = new Promise<ApiAnswer>((resolve) => (give = resolve));
  return { answer, give };
}

async function signIn(user: ReturnType<typeof renderLogin>['user'], password: string) {
  const field = screen.getByTestId('login-password');
  await user.clear(field);
  await user.type(field, password);
  await user.click(screen.getByTestId('login-submit'));
}

describe('a failed sign-in', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the reason once, without the generic error above it or a toast, however often it is tried', async () => {
    serveApi(() => ({ status: 400, msg: '用户名或密码错误', data: null }));
    const { user } = renderLogin();
    await user.type(screen.getByTestId('login-username'), 'shop01');
    for (const password of ['wrong-1', 'wrong-2', 'wrong-3']) await signIn(user, password);
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe('用户名或密码错误'));
    // Give a toast the time to show (the feedback code loads on first use).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getAllByText('用户名或密码错误')).toHaveLength(1);
    expect(screen.queryByText(GENERIC)).toBeNull();
  });

  it('names a locked account', async () => {
    serveApi(() => ({ status: 429, msg: '登录失败次数过多，请 15 分钟后再试', data: { retryAfterSeconds: 900 } }));
    const { user } = renderLogin();
    await user.type(screen.getByTestId('login-username'), 'shop01');
    await signIn(user, 'wrong');
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe('登录失败次数过多，请 15 分钟后再试'));
  });

  it('shows the spec text when the reason is unknown (no answer from the server)', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const { user } = renderLogin();
    await user.type(screen.getByTestId('login-username'), 'shop01');
    await signIn(user, 'secret');
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe(GENERIC));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByText('Failed to fetch')).toBeNull();
  });
});

/**
 * After "登录" the form stayed as it was for seconds (the sign-in call, the saved-language call,
 * the workplace's code): no sign that anything happened. Progress shows at once and lasts until
 * the next screen is there; the form cannot be changed or sent again meanwhile.
 */
describe('signing in', () => {
  afterEach(() => vi.unstubAllGlobals());

  const submit = () => screen.getByTestId('login-submit');
  const loading = () => submit().className.includes('ant-btn-loading');
  const fieldsDisabled = () =>
    [screen.getByTestId('login-username'), screen.getByTestId('login-password'), screen.getByRole('checkbox')].every(
      (field) => (field as HTMLInputElement).disabled,
    );

  it('shows the button loading at once after the click, the form disabled, from the sign-in call until the workplace shows', async () => {
    const signIn = held();
    const profile = held();
    const { calls } = serveApi((call) => {
      if (call.path === '/api/admin/user/login') return signIn.answer;
      if (call.path === '/api/admin/account/profile') return profile.answer;
      return { status: 404, msg: 'not found', data: null };
    });
    const { user } = renderLogin();
    await user.type(screen.getByTestId('login-username'), 'superadmin');
    await user.type(screen.getByTestId('login-password'), 'secret');
    expect(loading()).toBe(false);

    await user.click(submit());
    // the sign-in call is pending: progress is there already
    expect(calls.map((c) => c.path)).toEqual(['/api/admin/user/login']);
    expect(loading()).toBe(true);
    expect(submit().textContent).toBe('登录中…');
    expect(submit().getAttribute('aria-busy')).toBe('true');
    expect(fieldsDisabled()).toBe(true);

    // signed in; the saved language is still being asked for: still in progress
    signIn.give({ status: 200, msg: 'ok', data: { token: 'cp_test', expiresAt: '2099-01-01T00:00:00.000Z' } });
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/admin/account/profile'));
    expect(loading()).toBe(true);
    expect(fieldsDisabled()).toBe(true);
    // a second click sends nothing more
    await user.click(submit());
    expect(calls.filter((c) => c.path === '/api/admin/user/login')).toHaveLength(1);

    profile.give({ status: 200, msg: 'ok', data: { locale: null } });
    expect(await screen.findByTestId('workplace')).toBeTruthy();
    expect(screen.queryByTestId('login-submit')).toBeNull();
  });

  it('says so in English, and a failed sign-in gives the form back', async () => {
    await act(() => setLocale('en-US'));
    try {
      const signIn = held();
      serveApi(() => signIn.answer);
      const { user } = renderLogin();
      await user.type(screen.getByTestId('login-username'), 'superadmin');
      await user.type(screen.getByTestId('login-password'), 'wrong');
      await user.click(submit());
      expect(loading()).toBe(true);
      expect(submit().textContent).toBe('Logging in…');
      expect(fieldsDisabled()).toBe(true);

      signIn.give({ status: 400, msg: 'Incorrect username or password', data: null });
      await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe('Incorrect username or password'));
      await waitFor(() => expect(loading()).toBe(false));
      expect(submit().textContent).toBe('Log in');
      expect(fieldsDisabled()).toBe(false);
    } finally {
      await act(() => setLocale('zh-CN'));
    }
  });
});
