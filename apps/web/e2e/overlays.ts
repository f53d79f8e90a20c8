// The overlays a person meets on the demo business: every modal, drawer and popover
// the screens under src/features/* and the layout open, each with how to open it from its
// screen and which of its buttons carry the action. The phone sweep (mobile.e2e.ts) and the
// English sweep (english.e2e.ts) both walk this one list, so an overlay added here is checked
// at 390 px and in en-US alike.
import type { Locator, Page } from '@playwright/test';
import { RoleName } from '@clearplay/contract/constants';
import { chooseOption, escapeFrom, expect, settle, until } from './harness.ts';

export interface Overlay {
  /** Names the overlay in a failure and in its screenshot (`mobile-overlay-<name>-<locale>`). */
  name: string;
  /** The screen it opens from. */
  path: string;
  /** The roles the sweep opens it as. */
  roles: readonly string[];
  /** Opens it from `path` (already shown) and answers the element carrying it (its test id). */
  open: (page: Page) => Promise<Locator>;
  /** Its buttons that carry the action: they must be visible and clickable at 390 px. */
  primary: (overlay: Locator) => Locator[];
  /** Only on a phone (the menu drawer replaces the side menu below 992 px). */
  phoneOnly?: boolean;
  /**
   * Opens from its screen as first loaded, not as the overlay before it on that screen left it
   * (its `open` moves the screen on: another tab). Others share one load of their screen.
   */
  freshScreen?: boolean;
  /** Closes it (Escape by default). */
  close?: (page: Page, overlay: Locator) => Promise<void>;
}

const ADMIN = [RoleName.SUPER_ADMIN];
const EVERYONE = [RoleName.SUPER_ADMIN, RoleName.SHOP];
/** The layout's own overlays, met by every role on any screen (here the account page every role has). */
const ANY_ROLE = [RoleName.SUPER_ADMIN, RoleName.SHOP, RoleName.INSPECTOR];

/** A Modal's own OK button (the primary one in its footer). */
const okButton = (overlay: Locator) => overlay.locator('.ant-modal-footer .ant-btn-primary, .ant-modal-confirm-btns .ant-btn-primary');

/** Clicks the test id and waits for the overlay carrying `id` to show. */
async function byTestId(page: Page, trigger: Locator, id: string): Promise<Locator> {
  await trigger.click();
  // A Modal puts its test id on its root (no box of its own): the dialog is the `.ant-modal` inside.
  const overlay = page.locator(`[data-testid="${id}"]:not(.ant-modal-root), [data-testid="${id}"].ant-modal-root .ant-modal`).last();
  await expect(overlay).toBeVisible({ timeout: 8_000 });
  return overlay;
}

/** The ledger drawer, opened from the order list, with the demo shop shop0001 chosen. */
async function shopLedger(page: Page): Promise<Locator> {
  const drawer = await byTestId(page, page.getByTestId('ledger-open'), 'ledger-drawer');
  await drawer.getByTestId('ledger-shop').click();
  await page.keyboard.type('shop0001');
  await chooseOption(page, 'shop0001');
  return drawer;
}

/** The first row action whose test id starts with `prefix` (the list's first record, whatever it is). */
const firstRow = (page: Page, prefix: string) => page.locator(`tbody [data-testid^="${prefix}"]`).first();

/** The username in the first row that offers a subscription (a shop of the demo). */
async function firstShop(page: Page): Promise<string> {
  const button = firstRow(page, 'user-subscribe-');
  await until(() => button.count()).toBeGreaterThan(0);
  return ((await button.getAttribute('data-testid')) ?? '').slice('user-subscribe-'.length);
}

/** A confirm dialog (modal.confirm) left with its Cancel button: the sweep deletes nothing. */
const cancelConfirm = async (_page: Page, overlay: Locator) => overlay.locator('.ant-modal-confirm-btns .ant-btn').first().click();

/** The confirm dialog just opened by a delete action. */
async function confirmDialog(page: Page, trigger: Locator): Promise<Locator> {
  await trigger.click();
  const dialog = page.locator('.ant-modal-confirm').last();
  await expect(dialog).toBeVisible();
  return dialog;
}

export const OVERLAYS: readonly Overlay[] = [
  // The layout, from any screen.
  {
    name: 'menu-drawer',
    path: '/user/info',
    roles: ANY_ROLE,
    phoneOnly: true,
    open: (page) => byTestId(page, page.getByTestId('menu-drawer-open'), 'menu-drawer'),
    primary: (overlay) => [overlay.locator('.ant-menu-item, .ant-menu-submenu-title').first()],
  },
  {
    name: 'settings-drawer',
    path: '/user/info',
    roles: ANY_ROLE,
    open: (page) => byTestId(page, page.getByTestId('settings-open'), 'settings-drawer'),
    primary: (overlay) => [overlay.getByTestId('settings-copy'), overlay.getByTestId('settings-reset')],
  },
  {
    name: 'message-box',
    path: '/user/info',
    roles: ANY_ROLE,
    open: (page) => byTestId(page, page.getByTestId('message-bell'), 'message-box'),
    primary: (overlay) => [overlay.getByTestId('message-view-more')],
    close: async (page) => page.getByTestId('message-bell').click(),
  },
  {
    name: 'view-as',
    path: '/order/inspect',
    roles: ADMIN,
    open: async (page) => {
      await page.getByTestId('user-menu').click();
      return byTestId(page, page.getByTestId('user-view-as'), 'view-as-form');
    },
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'table-columns',
    path: '/order/inspect',
    roles: EVERYONE,
    open: (page) => byTestId(page, page.getByTestId('table-columns'), 'column-settings'),
    primary: (overlay) => [overlay.locator('.ant-checkbox-wrapper').first()],
    close: async (page) => page.getByTestId('table-columns').click(),
  },
  // Orders.
  {
    name: 'order-create',
    path: '/order/inspect',
    roles: ADMIN,
    open: (page) => byTestId(page, page.getByTestId('order-create'), 'order-form'),
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'order-edit',
    path: '/order/inspect',
    roles: ADMIN,
    open: (page) => byTestId(page, firstRow(page, 'order-edit-'), 'order-form'),
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'order-detail',
    path: '/order/inspect',
    roles: EVERYONE,
    open: (page) => byTestId(page, firstRow(page, 'order-detail-'), 'order-detail'),
    primary: (overlay) => [overlay.page().getByTestId('order-detail-close'), overlay.page().getByTestId('order-detail-download')],
  },
  {
    name: 'order-import',
    path: '/order/inspect',
    roles: ADMIN,
    open: (page) => byTestId(page, page.getByTestId('order-import'), 'order-import-modal'),
    primary: (overlay) => [overlay.page().getByTestId('order-import-submit'), overlay.page().getByTestId('order-import-template')],
  },
  {
    name: 'order-delete',
    path: '/order/inspect',
    roles: ADMIN,
    open: (page) => confirmDialog(page, firstRow(page, 'order-delete-')),
    primary: (overlay) => [overlay.getByTestId('confirm-ok')],
    close: cancelConfirm,
  },
  {
    name: 'ledger-drawer',
    path: '/order/inspect',
    roles: ADMIN,
    open: async (page) => {
      const drawer = await shopLedger(page);
      await until(() => drawer.locator('.ant-table-row').count()).toBeGreaterThan(0);
      return drawer;
    },
    primary: (overlay) => [overlay.getByTestId('ledger-recharge')],
  },
  {
    name: 'ledger-recharge',
    path: '/order/inspect',
    roles: ADMIN,
    open: async (page) => {
      const drawer = await shopLedger(page);
      return byTestId(page, drawer.getByTestId('ledger-recharge'), 'ledger-recharge-modal');
    },
    primary: (overlay) => [okButton(overlay)],
    close: async (page, overlay) => {
      await escapeFrom(page, overlay);
      await escapeFrom(page, page.getByTestId('ledger-drawer'));
    },
  },
  // Users.
  {
    name: 'user-create',
    path: '/system/user',
    roles: ADMIN,
    open: (page) => byTestId(page, page.getByTestId('user-create'), 'user-form'),
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'user-edit',
    path: '/system/user',
    roles: ADMIN,
    open: async (page) => byTestId(page, page.getByTestId(`user-edit-${await firstShop(page)}`), 'user-form'),
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'user-subscribe',
    path: '/system/user',
    roles: ADMIN,
    open: async (page) => byTestId(page, page.getByTestId(`user-subscribe-${await firstShop(page)}`), 'subscription-form'),
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'user-reset-password',
    path: '/system/user',
    roles: ADMIN,
    open: async (page) => byTestId(page, page.getByTestId(`user-reset-${await firstShop(page)}`), 'reset-password-form'),
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'user-subscription-history',
    path: '/system/user',
    roles: ADMIN,
    open: async (page) => {
      await page.getByTestId(`user-more-${await firstShop(page)}`).click();
      const history = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item').nth(1);
      return byTestId(page, history, 'subscription-history');
    },
    primary: (overlay) => [overlay.locator('.ant-drawer-close')],
  },
  {
    name: 'user-delete',
    path: '/system/user',
    roles: ADMIN,
    open: async (page) => {
      await page.getByTestId(`user-more-${await firstShop(page)}`).click();
      return confirmDialog(page, page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item-danger'));
    },
    primary: (overlay) => [overlay.getByTestId('confirm-ok')],
    close: cancelConfirm,
  },
  // Roles: the form with its permission tree.
  {
    name: 'role-create',
    path: '/system/role',
    roles: ADMIN,
    open: (page) => byTestId(page, page.getByTestId('role-create'), 'role-form'),
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'role-edit',
    path: '/system/role',
    roles: ADMIN,
    open: (page) => byTestId(page, page.getByTestId('role-edit-inspector'), 'role-form'),
    primary: (overlay) => [okButton(overlay), overlay.getByTestId('permission-tree').locator('.ant-checkbox, .ant-tree-checkbox').first()],
  },
  // Dictionaries.
  {
    name: 'dict-type-create',
    path: '/system/dict',
    roles: ADMIN,
    open: (page) => byTestId(page, page.getByTestId('dict-type-create'), 'dict-type-form'),
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'dict-type-edit',
    path: '/system/dict',
    roles: ADMIN,
    open: (page) => byTestId(page, page.getByTestId('dict-type-edit-order_result'), 'dict-type-form'),
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'dict-data-create',
    path: '/system/dict',
    roles: ADMIN,
    freshScreen: true,
    open: async (page) => {
      await page.getByTestId('dict-type-view-order_result').click();
      return byTestId(page, page.getByTestId('dict-data-create'), 'dict-data-form');
    },
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'dict-data-edit',
    path: '/system/dict',
    roles: ADMIN,
    freshScreen: true,
    open: async (page) => {
      await page.getByTestId('dict-type-view-order_result').click();
      return byTestId(page, page.getByTestId('dict-data-edit-3'), 'dict-data-form');
    },
    primary: (overlay) => [okButton(overlay)],
  },
  {
    name: 'dict-data-delete',
    path: '/system/dict',
    roles: ADMIN,
    freshScreen: true,
    open: async (page) => {
      await page.getByTestId('dict-type-view-order_result').click();
      return confirmDialog(page, page.getByTestId('dict-data-delete-3'));
    },
    primary: (overlay) => [overlay.getByTestId('confirm-ok')],
    close: cancelConfirm,
  },
  // Announcements on the workplace.
  {
    name: 'announcement-publish',
    path: '/dashboard/workplace',
    roles: ADMIN,
    open: (page) => byTestId(page, page.getByTestId('workplace-publish'), 'announcement-publish-modal'),
    primary: (overlay) => [okButton(overlay), overlay.getByTestId('editor-bold')],
  },
  {
    name: 'announcement-view',
    path: '/dashboard/workplace',
    roles: ADMIN,
    open: (page) => byTestId(page, page.getByTestId('announcement-open').first(), 'announcement-view'),
    primary: (overlay) => [overlay.locator('.ant-modal-close')],
  },
  {
    name: 'announcements-all',
    path: '/dashboard/workplace',
    roles: ADMIN,
    open: (page) => byTestId(page, page.getByTestId('workplace-announcements').locator('.ant-card-extra a'), 'announcements-drawer'),
    primary: (overlay) => [overlay.getByTestId('announcement-open').first()],
  },
  {
    name: 'announcement-delete',
    path: '/dashboard/workplace',
    roles: ADMIN,
    open: (page) => confirmDialog(page, page.getByTestId('announcement-delete').first()),
    primary: (overlay) => [overlay.getByTestId('confirm-ok')],
    close: cancelConfirm,
  },
  // The operation log.
  {
    name: 'log-detail',
    path: '/system/log',
    roles: ADMIN,
    open: (page) => byTestId(page, firstRow(page, 'log-detail-'), 'log-detail'),
    primary: (overlay) => [overlay.locator('.ant-drawer-close')],
  },
];

/** The overlays `role` meets, in the list's order; on a desktop screen without the phone's own. */
export const overlaysOf = (role: string, phone = true): Overlay[] =>
  OVERLAYS.filter((o) => o.roles.includes(role) && (phone || !o.phoneOnly));

/** Closes `overlay` its own way and waits for it to go. */
export async function closeOverlay(page: Page, overlay: Overlay, element: Locator): Promise<void> {
  if (overlay.close) {
    await overlay.close(page, element);
    await expect(element).toBeHidden();
  } else await escapeFrom(page, element);
}

/** The box a person sees of the overlay carrying `element`: the modal, the drawer's panel or the popover. */
export function overlayBox(element: Locator): Promise<{ left: number; right: number; top: number; bottom: number }> {
  return element.evaluate((el) => {
    const panel = '.ant-modal, .ant-drawer-content-wrapper, .ant-popover';
    const root = el.closest(panel) ?? el.querySelector(panel) ?? el;
    const { left, right, top, bottom } = root.getBoundingClientRect();
    return { left, right, top, bottom };
  });
}

/**
 * What is wrong with the open overlay on a `width` px wide screen: the overlay or the page
 * wider than the screen, a form field beside another or cut off, an action button hidden or
 * covered. [] when nothing is.
 */
export async function phoneProblems(page: Page, overlay: Overlay, element: Locator, width: number): Promise<string[]> {
  const bad: string[] = [];
  const where = `${overlay.path} ${overlay.name}`;
  const box = await overlayBox(element);
  if (box.left < 0 || box.right > width) bad.push(`${where}: the overlay spans ${Math.round(box.left)}..${Math.round(box.right)} px`);
  const scroll = await page.evaluate(() => ({ wide: document.scrollingElement?.scrollWidth ?? 0, inner: window.innerWidth }));
  if (scroll.wide > scroll.inner) bad.push(`${where}: the page scrolls sideways (${scroll.wide} px in ${scroll.inner})`);
  // Each field on its own row, whole: its control within the overlay.
  const fields = await element.evaluate((el) => {
    const root = el.closest('.ant-modal, .ant-drawer-content-wrapper, .ant-popover') ?? el;
    const { left, right } = root.getBoundingClientRect();
    const items = [...root.querySelectorAll('.ant-form-item')].filter(
      (item) => item.parentElement?.closest('.ant-form-item') === null && (item as HTMLElement).offsetParent !== null,
    );
    const boxes = items.map((item) => ({ label: item.querySelector('label')?.textContent ?? '?', box: item.getBoundingClientRect() }));
    const out: string[] = [];
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const sameRow = a.box.top < b.box.bottom - 1 && b.box.top < a.box.bottom - 1;
        if (sameRow) out.push(`the fields "${a.label}" and "${b.label}" sit side by side`);
      }
    }
    for (const control of root.querySelectorAll('.ant-form-item-control-input, .ant-form-item-label')) {
      const r = control.getBoundingClientRect();
      if (r.width > 0 && (r.left < left - 0.5 || r.right > right + 0.5))
        out.push(`a field is cut off (${Math.round(r.left)}..${Math.round(r.right)} px in ${Math.round(left)}..${Math.round(right)})`);
    }
    return out;
  });
  bad.push(...fields.map((line) => `${where}: ${line}`));
  for (const button of overlay.primary(element)) {
    const name = (await button.getAttribute('data-testid').catch(() => null)) ?? String(button);
    await expect(button).toBeVisible({ timeout: 10_000 });
    await button.scrollIntoViewIfNeeded();
    const b = await button.boundingBox();
    if (b === null || b.x < 0 || b.x + b.width > width) {
      bad.push(`${where}: the button ${name} is outside the screen (${b ? `${Math.round(b.x)}..${Math.round(b.x + b.width)}` : 'no box'})`);
      continue;
    }
    // Clickable: the point a tap lands on is the button's own, not something covering it.
    const hit = await button.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return top !== null && (el === top || el.contains(top));
    });
    if (!hit) bad.push(`${where}: the button ${name} is covered`);
  }
  return bad;
}

/**
 * Loads each overlay's screen for a sweep of overlays (`goto`, not `visit`: inside the app the
 * screens left stay mounted behind their tabs, and an overlay's buttons would be found twice):
 * once for the overlays of one screen that follow each other, again for one that declares
 * `freshScreen`, and after a failure (`failed`).
 */
export function overlayScreens(): {
  ready: (page: Page, overlay: Overlay) => Promise<void>;
  failed: () => void;
} {
  let reload = true;
  return {
    ready: async (page, overlay) => {
      if (reload || overlay.freshScreen || new URL(page.url()).pathname !== overlay.path) {
        await page.goto(overlay.path);
        await settle(page);
      }
      reload = false;
    },
    failed: () => {
      reload = true;
    },
  };
}
