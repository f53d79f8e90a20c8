import type { TFunction } from 'i18next';

/**
 * The operation log's module and action codes (the routes' `log` rules) in the reader's language
 * (decision 0097). A code this build does not know is shown as it is.
 */
export const LOG_MODULES = ['auth', 'user', 'account', 'order', 'dict', 'role', 'announcement', 'system'] as const;
export const LOG_ACTIONS = [
  'login',
  'logout',
  'secondFactorEnrol',
  'secondFactorConfirm',
  'secondFactorDisable',
  'create',
  'update',
  'delete',
  'import',
  'resetPassword',
  'resetSecondFactor',
  'setStatus',
  'setSubscription',
  'cancelSubscription',
  'recharge',
  'avatar',
  'password',
  'endSessions',
  'viewAs',
  'viewAsEnd',
  'createType',
  'updateType',
  'deleteType',
  'createData',
  'updateData',
  'deleteData',
  'retention',
] as const;

const known = <T extends string>(list: readonly T[], code: string): code is T => (list as readonly string[]).includes(code);

export const moduleWord = (t: TFunction, code: string): string => (known(LOG_MODULES, code) ? t(`log.module.${code}`) : code);
export const actionWord = (t: TFunction, code: string): string => (known(LOG_ACTIONS, code) ? t(`log.action.${code}`) : code);
