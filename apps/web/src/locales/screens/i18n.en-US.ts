import type { i18nZhCN } from './i18n.zh-CN.ts';

/** English strings of the bilingual dictionaries; same keys as ./i18n.zh-CN.ts. */
export const i18nEnUS: Record<keyof typeof i18nZhCN, string> = {
  'dict.data.field.labelZh': 'Chinese label',
  'dict.data.field.labelEn': 'English label',
  'dict.data.field.labelEn.help': 'Shown on English screens; when empty, the Chinese label is shown',
  'dict.data.field.remarkZh': 'Chinese remark',
  'dict.data.field.remarkEn': 'English remark',
  'dict.data.field.remarkEn.help': "Shown on English pages (a price's note, a link's description); when empty, the Chinese remark is shown",
  'dict.type.field.nameZh': 'Chinese name',
  'dict.type.field.nameEn': 'English name',
  'dict.type.field.nameEn.help': 'Shown on English screens; when empty, the Chinese name is shown',
};
