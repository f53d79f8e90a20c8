import { describe, expect, it } from 'vitest';
import { targetPath } from './targets.ts';

describe('targetPath (where a message box item leads)', () => {
  it('opens an order on the order screen with its detail', () => {
    expect(targetPath({ target: { type: 'order', id: 42 } }, 7)).toBe('/order/inspect?detail=42');
  });
  it('sends staff to the user list for another user’s subscription, and the user to the user centre for their own', () => {
    expect(targetPath({ target: { type: 'subscription', id: 9 } }, 7)).toBe('/system/user');
    expect(targetPath({ target: { type: 'subscription', id: 7 } }, 7)).toBe('/user/info');
    expect(targetPath({ target: { type: 'ledger', id: 7 } }, 7)).toBe('/user/info');
  });
  it('opens announcements among the notices, and nothing for an item without a target', () => {
    expect(targetPath({ target: { type: 'announcement', id: 3 } }, 7)).toBe('/user/message?type=notice');
    expect(targetPath({ target: null }, 7)).toBeNull();
  });
});
