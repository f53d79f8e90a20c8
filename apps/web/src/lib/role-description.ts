import { localizedLabel } from '@clearplay/contract/constants';

/**
 * A role's description for a language (decision 0080): English readers get `descriptionEn`,
 * or the Chinese `description` when it is empty; everyone else the Chinese one. The same rule
 * as dictionary labels (decision 0066, `dictLabel`).
 */
export const roleDescription = (role: { description: string; descriptionEn?: string | null }, locale: string): string =>
  localizedLabel(role.description, role.descriptionEn, locale);
