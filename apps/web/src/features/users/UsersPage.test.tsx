import { screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALL_PERMISSIONS } from '@clearplay/contract/constants';
import type { CurrentUser, UserItem } from '@clearplay/contract';
import { resetUser, userStore } from '../../lib/current-user.ts';
import { serveApi } from '../../test/fake-api.ts';
import { renderInApp } from '../../test/render.tsx';
import UsersPage from './UsersPage.tsx';

/** A super admin resets another user's two-step verification from the "More" menu (decision 0091). */
const BOSS: CurrentUser = {
  id: 1,
  username: 'superadmin',
  nickname: '超级管理员',
  roleId: 1,
  wechat: '',
  phone: '',
  avatar: '',
  role: { name: 'super_admin', permissions: [...ALL_PERMISSIONS], description: '', descriptionEn: '', isAdmin: true },
};

const user = (id: number, username: string, secondFactor: boolean): UserItem => ({
  id,
  username,
  nickname: username,
  roleId: 2,
  roleName: 'admin',
  roleIsAdmin: true,
  wechat: '',
  phone: '',
  avatar: '',
  ifPublic: 0,
  status: 1,
  createdTime: '2026-01-02T03:04:05.000Z',
  loginTime: null,
  defaultPrice: 0,
  defaultPriceCheat: 0,
  defaultPriceSuspect: 0,
  defaultPriceNotPass: 0,
  serviceEndDate: null,
  subscriptionState: 'none',
  subscriptionType: null,
  durationDays: null,
  secondFactor,
});

describe('resetting a second factor on the users screen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    resetUser();
  });

  it('is offered for a user who has one, confirmed, then sent', async () => {
    userStore.set(BOSS);
    const { calls } = serveApi((call) => {
      if (call.path === '/api/admin/user/list')
        return { status: 200, msg: 'ok', data: { list: [user(5, 'admin05', true), user(6, 'admin06', false)], total: 2 } };
      if (call.path === '/api/admin/user/resetSecondFactor') return { status: 200, msg: 'ok', data: null };
      return { status: 200, msg: 'ok', data: [] };
    });
    const router = createMemoryRouter([{ path: '/system/user', element: <UsersPage /> }], { initialEntries: ['/system/user'] });
    const { user: clicker } = renderInApp(<RouterProvider router={router} />);

    // no factor, no such item
    await clicker.click(await screen.findByTestId('user-more-admin06'));
    expect(await screen.findByText('删除')).toBeTruthy();
    expect(screen.queryByText('重置两步验证')).toBeNull();

    await clicker.click(screen.getByTestId('user-more-admin05'));
    await clicker.click(await screen.findByText('重置两步验证'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('确定要移除 admin05 的验证器应用和恢复码吗？');
    await clicker.click(within(dialog).getByRole('button', { name: '重置两步验证' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/admin/user/resetSecondFactor')?.body).toEqual({ id: 5 }));
    expect(await screen.findByText('已重置 admin05 的两步验证')).toBeTruthy();
  });
});
