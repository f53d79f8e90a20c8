/**
 * The permission catalogue: every permission string the server checks, grouped as the tree
 * the role screen edits. A role holding a string the catalogue does not list is refused.
 */
export const PERMISSION_TREE = [
  {
    key: 'dashboard',
    children: ['workplace:view', 'announcement:create', 'announcement:delete'],
  },
  {
    key: 'order',
    children: [
      'order:view',
      'order:view:all',
      'order:create',
      'order:update',
      'order:update:any',
      'order:amount:override',
      'order:delete',
      'order:import',
      'order:export',
      'order:download',
    ],
  },
  {
    key: 'user',
    children: [
      'user:view',
      'user:create',
      'user:update',
      'user:delete',
      'user:status',
      'user:password:reset',
      'user:subscription',
      'user:recharge',
      'user:ledger',
    ],
  },
  { key: 'role', children: ['role:view', 'role:create', 'role:update', 'role:delete'] },
  { key: 'dict', children: ['dict:view', 'dict:create', 'dict:update', 'dict:delete'] },
  { key: 'log', children: ['log:view'] },
] as const;

export type Permission = (typeof PERMISSION_TREE)[number]['children'][number];

export const ALL_PERMISSIONS: readonly Permission[] = PERMISSION_TREE.flatMap((group) => group.children as readonly Permission[]);

export const isPermission = (value: string): value is Permission => (ALL_PERMISSIONS as readonly string[]).includes(value);

/** The permissions each seeded role starts with (docs/product.md "People and what each may do"). */
export const SEEDED_ROLE_PERMISSIONS: Record<'super_admin' | 'admin' | 'inspector' | 'shop', readonly Permission[]> = {
  super_admin: ALL_PERMISSIONS,
  admin: [
    'order:view',
    'order:view:all',
    'order:create',
    'order:update',
    'order:update:any',
    'order:amount:override',
    'order:delete',
    'order:import',
    'order:export',
    'order:download',
    'user:recharge',
    'user:ledger',
  ],
  inspector: ['order:view', 'order:view:all', 'order:create', 'order:update', 'order:import', 'order:download'],
  shop: ['order:view', 'order:export', 'order:download'],
};

/**
 * `GET /admin/user/search` (the user pickers) answers any one of these: user management, and
 * the order form's and the shop-balance drawer's shop and inspector pickers.
 */
export const USER_SEARCH_PERMISSIONS: readonly Permission[] = ['user:view', 'order:create', 'order:update', 'user:ledger'];
