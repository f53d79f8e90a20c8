import { describe, expect, it } from 'vitest';
import { roleDescription } from './role-description.ts';

// Decision 0080: a role's description in the reader's language, the rule of dictionary labels.
describe('role descriptions in the reader’s language', () => {
  it('gives English readers the English description, falling back to the Chinese one when it is empty', () => {
    const shop = { description: '店铺：查看本店订单', descriptionEn: 'Shop: sees its own orders' };
    expect(roleDescription(shop, 'en-US')).toBe('Shop: sees its own orders');
    expect(roleDescription(shop, 'zh-CN')).toBe('店铺：查看本店订单');
    expect(roleDescription({ description: '审计', descriptionEn: '' }, 'en-US')).toBe('审计');
    expect(roleDescription({ description: '审计', descriptionEn: '  ' }, 'en-US')).toBe('审计');
    expect(roleDescription({ description: '审计' }, 'en-US')).toBe('审计');
  });
});
