import { describe, expect, it } from 'vitest';
import type { Permission } from '@clearplay/contract';
import { SEEDED_ROLE_PERMISSIONS } from '@clearplay/contract/constants';
import { can, type Actor } from '../../lib/permissions.ts';
import { canEditOrder } from './permissions.ts';

const actor = (id: number, role: keyof typeof SEEDED_ROLE_PERMISSIONS): Actor => ({ id, permissions: SEEDED_ROLE_PERMISSIONS[role] });

describe('order permissions', () => {
  const inspector = actor(7, 'inspector');
  const admin = actor(2, 'admin');
  const shop = actor(9, 'shop');

  it('lets an inspector edit only the orders they inspected', () => {
    expect(canEditOrder(inspector, { inspectorId: 7, view: 'full' })).toBe(true);
    expect(canEditOrder(inspector, { inspectorId: 8, view: 'full' })).toBe(false);
  });

  it('lets an admin edit any order, and nobody edit a public (reduced) view', () => {
    expect(canEditOrder(admin, { inspectorId: 8, view: 'full' })).toBe(true);
    expect(canEditOrder(admin, { inspectorId: 8, view: 'public' })).toBe(false);
  });

  it('never lets a shop or an anonymous reader edit', () => {
    expect(canEditOrder(shop, { inspectorId: 9, view: 'full' })).toBe(false);
    expect(canEditOrder(null, { inspectorId: 9, view: 'full' })).toBe(false);
  });

  it('reads the toolbar permissions of the seeded roles', () => {
    const toolbar: Permission[] = ['order:create', 'order:import', 'order:export', 'order:delete'];
    expect(toolbar.filter((p) => can(shop, p))).toEqual(['order:export']);
    expect(can(inspector, 'order:delete')).toBe(false);
    expect(can(admin, 'order:delete')).toBe(true);
    expect(can(null, 'order:view')).toBe(false);
  });
});
