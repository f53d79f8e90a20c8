import { RoleName } from './roles.ts';

/**
 * Switch roles (decision 0060): the roles a super admin may view the app as. A shop
 * is viewed as one chosen shop account; admin and inspector as the role alone.
 */
export const VIEW_AS_ROLES = [RoleName.ADMIN, RoleName.INSPECTOR, RoleName.SHOP] as const;
export type ViewAsRole = (typeof VIEW_AS_ROLES)[number];
