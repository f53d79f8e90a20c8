import { afterEach, describe, expect, it, vi } from 'vitest';

/** A window whose localStorage holds `saved`, then a fresh copy of lib/settings.ts reading it. */
async function withSaved(saved: Record<string, string>) {
  const items = new Map(Object.entries(saved));
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => items.set(key, value),
      removeItem: (key: string) => items.delete(key),
    },
  });
  vi.resetModules();
  return import('./settings.ts');
}

afterEach(() => vi.unstubAllGlobals());

describe('saved settings', () => {
  it('restores every saved setting that has the right type', async () => {
    const saved = {
      theme: 'dark',
      colorWeak: true,
      navbar: false,
      menu: true,
      topMenu: true,
      hideMenu: false,
      menuCollapse: true,
      footer: false,
      themeColor: '#722ED1',
      menuWidth: 260,
      tabBar: false,
      menuFromServer: true,
      globalSettings: false,
    };
    const { readSavedSettings, appStore, persistedSettings } = await withSaved({ settings: JSON.stringify(saved) });
    expect(readSavedSettings()).toEqual(saved);
    expect(persistedSettings(appStore.get())).toEqual(saved);
    expect(appStore.get().device).toBe('desktop');
  });

  it('ignores what is broken or of the wrong type, keeping the defaults', async () => {
    const { readSavedSettings, appStore } = await withSaved({
      settings: JSON.stringify({ colorWeak: 'yes', themeColor: 'red', menuWidth: 5, theme: 'blue', footer: false, device: 'mobile' }),
    });
    expect(readSavedSettings()).toEqual({ footer: false });
    expect(appStore.get()).toMatchObject({ colorWeak: false, themeColor: '#165DFF', menuWidth: 220, theme: 'light', device: 'desktop' });
    expect((await withSaved({ settings: '{not json' })).readSavedSettings()).toEqual({});
  });

  it("lets the theme's own key (read by public/boot.js before paint) win", async () => {
    const { readSavedSettings } = await withSaved({ settings: JSON.stringify({ theme: 'light' }), theme: 'dark' });
    expect(readSavedSettings().theme).toBe('dark');
  });
});

describe('serverMenuNames', () => {
  it('collects the route names at every depth', async () => {
    const { serverMenuNames } = await withSaved({});
    const names = serverMenuNames([
      {
        name: 'order',
        path: '/order',
        locale: 'menu.order',
        children: [{ name: 'Inspect', path: '/order/inspect', locale: 'menu.order.inspect' }],
      },
    ]);
    expect([...names].sort()).toEqual(['Inspect', 'order']);
  });
});
