/** Strings of the bilingual dictionaries and the English sweep; same keys in ./i18n.en-US.ts. */
export const i18nZhCN = {
  'dict.data.field.labelZh': '中文标签',
  'dict.data.field.labelEn': '英文标签',
  'dict.data.field.labelEn.help': '英文界面显示此标签；留空时显示中文标签',
  'dict.data.field.remarkZh': '中文备注',
  'dict.data.field.remarkEn': '英文备注',
  'dict.data.field.remarkEn.help': '英文页面显示此备注（价格说明、链接介绍）；留空时显示中文备注',
  'dict.type.field.nameZh': '中文名称',
  'dict.type.field.nameEn': '英文名称',
  'dict.type.field.nameEn.help': '英文界面显示此名称；留空时显示中文名称',
} as const;
