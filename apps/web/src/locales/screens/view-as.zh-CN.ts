/** Chinese strings of switch roles (decision 0060): the user menu item, the dialog and the banner. */
export const viewAsZhCN = {
  'viewAs.menu': '切换角色',
  'viewAs.title': '切换角色',
  'viewAs.help': '以所选角色查看整个后台，直到切换回来：菜单、页面、按钮和服务器权限都收窄到该角色；期间的操作都记入操作日志。',
  'viewAs.field.role': '查看身份',
  'viewAs.field.shop': '店铺账号',
  'viewAs.shopPlaceholder': '输入用户名或昵称搜索店铺',
  'viewAs.submit': '切换',
  'viewAs.role.admin': '管理员',
  'viewAs.role.inspector': '检测员',
  'viewAs.role.shop': '店铺',
  'viewAs.banner.role': '正在以「{{role}}」身份查看（登录账号：{{by}}）',
  'viewAs.banner.account': '正在以「{{role}}」{{account}} 的身份查看（登录账号：{{by}}）',
  'viewAs.switchBack': '切换回来',
} as const;
