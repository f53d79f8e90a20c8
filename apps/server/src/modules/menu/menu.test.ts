import { Status, type MenuList } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, loginAs, type TestContext } from '../../test/context.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.destroy());

/** The menu as "group > screen" paths, in menu order. */
const outline = (menu: MenuList) =>
  menu.flatMap((group) => (group.children ?? []).map((leaf) => `${group.name}>${leaf.name}:${leaf.path}`));

async function menuOf(roleName: string): Promise<MenuList> {
  const user = await loginAs(ctx, roleName);
  const res = await call<MenuList>(ctx, 'POST', '/api/menu', { as: user });
  expect(res.http).toBe(200);
  expect(res.status).toBe(200);
  return res.data;
}

describe('POST /api/menu', () => {
  it('gives the super admin every menu screen, grouped and ordered, with titles and icons', async () => {
    const menu = await menuOf('super_admin');
    expect(outline(menu)).toEqual([
      'dashboard>Workplace:/dashboard/workplace',
      'dashboard>Monitor:/dashboard/monitor',
      'order>Inspect:/order/inspect',
      'form>OrderForm:/form/order',
      'system>User:/system/user',
      'system>Log:/system/log',
      'system>Role:/system/role',
      'system>Dict:/system/dict',
      'visualization>DataAnalysis:/visualization/data-analysis',
      'exception>Exception403:/exception/403',
      'exception>Exception404:/exception/404',
      'exception>Exception500:/exception/500',
    ]);
    expect(menu[0]).toMatchObject({ name: 'dashboard', path: '/dashboard', locale: 'menu.dashboard', icon: 'dashboard' });
    expect(menu[2]).toMatchObject({ name: 'form', path: '/form', locale: 'menu.form', icon: 'form' });
    expect(menu[3]?.children?.[0]).toEqual({ name: 'User', path: '/system/user', locale: 'menu.system.user' });
  });

  it.each([
    ['admin', ['order>Inspect:/order/inspect', 'form>OrderForm:/form/order']],
    ['inspector', ['order>Inspect:/order/inspect', 'form>OrderForm:/form/order']],
    ['shop', ['order>Inspect:/order/inspect']],
  ])('gives %s only the screens its role may open (no hidden routes, no empty groups)', async (role, expected) => {
    const menu = await menuOf(role);
    expect(outline(menu)).toEqual(expected);
    expect(JSON.stringify(menu)).not.toContain('redirect');
    // the profile and result pages need an order or an action: never in the menu (decision 0064)
    expect(JSON.stringify(menu)).not.toMatch(/\/profile|\/result/);
  });

  it('follows a role created later (any-role screens only)', async () => {
    const boss = await loginAs(ctx, 'super_admin');
    const created = await call<{ id: number }>(ctx, 'POST', '/api/admin/role/create', {
      as: boss,
      payload: { name: 'auditor_menu', description: 'menu test', permissions: ['order:view'], isAdmin: false },
    });
    expect(created.status).toBe(200);
    expect(outline(await menuOf('auditor_menu'))).toEqual(['order>Inspect:/order/inspect']);
  });

  it('refuses a call without a session (401) or with a forged token (50008)', async () => {
    const res = await call(ctx, 'POST', '/api/menu');
    expect(res.http).toBe(401);
    expect(res.status).toBe(401);
    const bad = await call(ctx, 'POST', '/api/menu', { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(Status.TOKEN_ILLEGAL);
  });
});
