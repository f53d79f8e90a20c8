import 'i18next';
import type zhCN from '../locales/zh-CN.ts';
import type screensZhCN from '../locales/screens/zh-CN.ts';
import type { publicZhCN } from '../locales/screens/public.zh-CN.ts';

// Typed translation keys: t('menu.system.usr') is a type error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN & typeof screensZhCN & typeof publicZhCN };
    keySeparator: false;
    nsSeparator: false;
  }
}
