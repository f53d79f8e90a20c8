import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { AccountProfile } from '@clearplay/contract';
import { serveApi } from '../../test/fake-api.ts';
import { renderInApp } from '../../test/render.tsx';
import UserSettingPage from './UserSettingPage.tsx';

/** The first-start super admin: no chat ID, no phone (decision 0084). */
const SUPER_ADMIN: AccountProfile = {
  id: 1,
  username: 'superadmin',
  nickname: '超级管理员',
  roleName: 'super_admin',
  roleDescription: '超级管理员：拥有全部功能',
  roleDescriptionEn: '',
  wechat: '',
  phone: '',
  avatar: '',
  locale: null,
  loginTime: null,
  createdTime: '2026-11-27T00:00:00.000Z',
  shop: null,
};

function renderSettings() {
  let profile = SUPER_ADMIN;
  const api = serveApi((call) => {
    if (call.method === 'POST' && call.path === '/api/admin/account/profile') {
      profile = { ...profile, ...(call.body as Partial<AccountProfile>) };
      return { status: 200, msg: 'ok', data: profile };
    }
    return { status: 200, msg: 'ok', data: profile };
  });
  const router = createMemoryRouter([{ path: '/user/setting', element: <UserSettingPage /> }], { initialEntries: ['/user/setting'] });
  return { ...renderInApp(<RouterProvider router={router} />), api };
}

describe('user settings', () => {
  it('the super admin, with no chat ID and no phone, saves a new nickname', async () => {
    const { user, api } = renderSettings();
    const nickname = await screen.findByTestId('account-nickname');
    await waitFor(() => expect((nickname as HTMLInputElement).value).toBe('超级管理员'));
    await user.clear(nickname);
    await user.type(nickname, '站长');
    await user.click(screen.getByTestId('account-save'));
    expect(await screen.findByText('已保存')).toBeTruthy();
    const saved = api.calls.find((c) => c.method === 'POST');
    expect(saved?.body).toMatchObject({ nickname: '站长', wechat: '', phone: '' });
    expect(screen.queryByText(/请输入微信号|请输入手机号/)).toBeNull();
  });

  it('still checks a phone that is given', async () => {
    const { user, api } = renderSettings();
    const phone = await screen.findByTestId('account-phone');
    await waitFor(() => expect((screen.getByTestId('account-nickname') as HTMLInputElement).value).toBe('超级管理员'));
    await user.type(phone, 'call me');
    await user.click(screen.getByTestId('account-save'));
    expect(await screen.findByText('手机号只能包含数字、空格和 +-()')).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
