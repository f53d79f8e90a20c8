/** The roles seeded on first start (docs/product.md "People and what each may do"). Route guards compare role names. */
export const RoleName = {
  SUPER_ADMIN: 'super_admin',
  ADMIN: 'admin',
  INSPECTOR: 'inspector',
  SHOP: 'shop',
} as const;
export type RoleName = (typeof RoleName)[keyof typeof RoleName];
