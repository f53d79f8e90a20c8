import type { viewAsZhCN } from './view-as.zh-CN.ts';

/** English strings of switch roles; same keys as ./view-as.zh-CN.ts. */
export const viewAsEnUS: Record<keyof typeof viewAsZhCN, string> = {
  'viewAs.menu': 'Switch roles',
  'viewAs.title': 'Switch roles',
  'viewAs.help':
    'See the whole back office as the chosen role until you switch back: menus, screens, buttons and server permissions narrow to that role; every call made meanwhile is written to the operation log.',
  'viewAs.field.role': 'View as',
  'viewAs.field.shop': 'Shop account',
  'viewAs.shopPlaceholder': 'Search a shop by username or nickname',
  'viewAs.submit': 'Switch',
  'viewAs.role.admin': 'Admin',
  'viewAs.role.inspector': 'Inspector',
  'viewAs.role.shop': 'Shop',
  'viewAs.banner.role': 'Viewing as {{role}} (signed in as {{by}})',
  'viewAs.banner.account': 'Viewing as {{role}} {{account}} (signed in as {{by}})',
  'viewAs.switchBack': 'Switch back',
};
