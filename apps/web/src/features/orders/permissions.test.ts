import { describe, expect, it } from 'vitest';
import type { Permission } from '@clearplay/contract';
import { SEEDED_ROLE_PERMISSIONS } from '@clearplay/contract/constants';
import { can, type Actor } from '../../lib/permissions.ts';
import i18next from 'i18next';
import { I18N_OPTIONS } from '../../lib/i18n.ts';
import enUS from '../../locales/en-US.ts';
import zhCN from '../../locales/zh-CN.ts';
import { canEditOrder, inspectDescription } from './permissions.ts';

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

describe('the orders page subtitle', () => {
  const subtitle = async (lng: 'zh-CN' | 'en-US', who: Actor) => {
    const i18n = i18next.createInstance();
    await i18n.init({ ...I18N_OPTIONS, lng, resources: { 'en-US': { translation: enUS }, 'zh-CN': { translation: zhCN } } });
    return inspectDescription(who, i18n.t, lng);
  };

  it('promises a shop search, export and download, not create, import or edit', async () => {
    const shop = actor(9, 'shop');
    expect(await subtitle('zh-CN', shop)).toBe('检测记录的查询、导出和证据下载。');
    expect(await subtitle('en-US', shop)).toBe('Detection records: search, export, and download evidence.');
  });

  it('promises an admin every action', async () => {
    expect(await subtitle('zh-CN', actor(2, 'admin'))).toBe('检测记录的查询、新建、导入、导出、编辑和证据下载。');
  });
});
