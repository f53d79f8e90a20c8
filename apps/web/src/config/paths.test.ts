import { serverMenuFor } from '@clearplay/contract/constants';
import { describe, expect, it } from 'vitest';
import zhCN from '../locales/zh-CN.ts';
import enUS from '../locales/en-US.ts';
import { firstPermittedRoute, menuRoutes, routes, type AppRoute } from './paths.ts';

const all = (list: readonly AppRoute[]): AppRoute[] => list.flatMap((route) => [route, ...all(route.children ?? [])]);

describe('the shared route table (contract constants/routes.ts)', () => {
  it("names a title key of the web's messages, in both languages, on every route", () => {
    const missing = all(routes)
      .map((route) => route.meta.locale)
      .filter((key) => !(key in zhCN) || !(key in enUS));
    expect(missing).toEqual([]);
  });

  it('gives the web menu and the server menu the same screens for every role', () => {
    for (const role of ['super_admin', 'admin', 'inspector', 'shop', 'someone_else']) {
      const web = menuRoutes(role).map((group) => [group.name, (group.children ?? []).map((leaf) => leaf.name)]);
      const server = serverMenuFor(role).map((group) => [group.name, (group.children ?? []).map((leaf) => leaf.name)]);
      expect(server, role).toEqual(web);
    }
  });

  it('narrows the menu and the first permitted route to what `allowed` lets through (the server menu)', () => {
    const onlyLogs = (route: AppRoute) => route.name === 'Log';
    expect(menuRoutes('super_admin', onlyLogs).map((group) => group.name)).toEqual(['system']);
    expect(firstPermittedRoute('super_admin', onlyLogs)?.path).toBe('/system/log');
    expect(firstPermittedRoute('shop')?.path).toBe('/order/inspect');
    expect(firstPermittedRoute('shop', () => false)).toBeUndefined();
  });
});
