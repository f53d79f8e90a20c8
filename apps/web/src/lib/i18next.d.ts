import 'i18next';
import type zhCN from '../locales/zh-CN.ts';

// Typed translation keys: t('menu.system.usr') is a type error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN };
    keySeparator: false;
    nsSeparator: false;
  }
}
