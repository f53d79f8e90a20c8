import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../../../test/fake-api.ts';
import { renderInApp } from '../../../test/render.tsx';
import { LoginForm } from './LoginForm.tsx';

/**
 * Each failed sign-in showed the generic error above the real reason, and the same reason again
 * as a toast, stacking up with every try. One failure, one message: the reason, or the spec's
 * text (§5) when there is none.
 */
const GENERIC = '登录出错，请刷新重试';

function renderLogin() {
  const router = createMemoryRouter([{ path: '/login', element: <LoginForm /> }], { initialEntries: ['/login'] });
  return renderInApp(<RouterProvider router={router} />);
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
