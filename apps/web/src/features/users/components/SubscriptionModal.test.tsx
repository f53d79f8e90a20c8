import type { UserItem } from '@clearplay/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '../../../test/render.tsx';
import { SubscriptionModal } from './SubscriptionModal.tsx';

const shop: UserItem = {
  id: 7,
  username: 'shop01',
  nickname: 'Golden Dragon',
  roleId: 4,
  roleName: 'shop',
  roleIsAdmin: false,
  wechat: '',
  phone: '',
  avatar: '',
  ifPublic: 0,
  status: 1,
  createdTime: '2026-01-02T03:04:05.000Z',
  loginTime: null,
  defaultPrice: 1000,
  defaultPriceCheat: 3000,
  defaultPriceSuspect: 1500,
  defaultPriceNotPass: 500,
  serviceEndDate: null,
  subscriptionState: 'none',
  subscriptionType: null,
  durationDays: null,
  secondFactor: false,
};

describe('SubscriptionModal', () => {
  it('says "未订阅" once, not "未订阅 未订阅", for a shop never subscribed', async () => {
    renderInApp(<SubscriptionModal user={shop} onClose={() => undefined} />);
    const current = await screen.findByTestId('subscription-current-end');
    expect(current.textContent?.trim()).toBe('未订阅');
  });

  it('shows a running subscription’s end with its state', async () => {
    const end = new Date(Date.now() + 20 * 86_400_000).toISOString();
    renderInApp(<SubscriptionModal user={{ ...shop, serviceEndDate: end, subscriptionState: 'active' }} onClose={() => undefined} />);
    const current = await screen.findByTestId('subscription-current-end');
    expect(current.textContent).toMatch(/^\d{4}-\d{2}-\d{2} [\d:]+ 生效中$/);
  });
});
