/**
 * Every message the server puts in an envelope's `msg`, in both locales. en-US is the
 * reference: zh-CN must have exactly the same keys (the type checker enforces it).
 * `{name}` placeholders are filled from the params.
 */
const enUS = {
  ok: 'ok',
  'errors.internal': 'Internal error',
  'errors.notFound': 'No such API: {method} {path}',
  'errors.badRequest': 'Bad request',
  'errors.invalidJson': 'The request body is not valid JSON',
  'errors.payloadTooLarge': 'The request body is too large',
  'errors.unsupportedMediaType': 'Unsupported content type',
  'errors.request': 'The request could not be processed',
  'errors.validation': '{field}: {message}',
  'errors.routeUndeclared': 'This route does not declare its access rule',
  'errors.permission': 'You do not have permission to do this ({permission})',

  'validation.required': 'is required',
  'validation.empty': 'cannot be empty',
  'validation.minLength': 'must NOT have fewer than {limit} characters',
  'validation.maxLength': 'must NOT have more than {limit} characters',
  'validation.minimum': 'must be >= {limit}',
  'validation.maximum': 'must be <= {limit}',
  'validation.type': 'must be {type}',
  'validation.enum': 'must be one of: {values}',
  'validation.const': 'must be {value}',
  'validation.format': 'must be a valid {format}',
  'validation.pattern': 'has an invalid format',
  'validation.minItems': 'must NOT have fewer than {limit} items',
  'validation.maxItems': 'must NOT have more than {limit} items',
  'validation.additionalProperties': 'must NOT have additional properties',
  'validation.invalid': 'is invalid',

  'auth.required': 'Please log in first',
  'auth.tokenMalformed': 'The login token is malformed, please log in again',
  'auth.revoked.disabled': 'Your account has been disabled, you have been logged out',
  'auth.revoked.password_reset': 'Your password was reset, please log in again',
  'auth.revoked.deleted': 'Your account has been deleted',
  'auth.revoked.logged_out_elsewhere': 'You have been logged out from another place',
  'auth.expired': 'Your login has expired, please log in again',
  'auth.badCredentials': 'Incorrect username or password',
  'auth.accountDisabled': 'This account has been disabled, please contact an administrator',
  'auth.locked': 'Too many failed logins, please try again in {minutes} minutes',

  'auth.revoked.role_changed': 'Your role was changed, please log in again',

  'user.notFound': 'User #{id} does not exist',
  'user.usernameTaken': 'Username "{username}" is already taken',
  'user.roleNotFound': 'Role #{id} does not exist',
  'user.selfRole': 'You cannot change your own role',
  'user.selfDisable': 'You cannot disable your own account',
  'user.selfDelete': 'You cannot delete your own account',
  'user.lastSuperAdmin': '{username} is the last enabled super administrator; keep at least one',
  'user.roleTooHigh': 'You cannot give a role that has permissions you do not have ({role})',
  'user.targetTooHigh': 'You cannot manage {username}: their role has permissions you do not have',
  'user.hasData': '{username} has {count} subscription records and cannot be deleted; disable the account instead',
  'subscription.adminRole': '{username} has an administrator role ({role}); administrators cannot be subscribed',
  'subscription.customDays': 'A custom subscription needs its number of days',
  'subscription.notActive': '{username} has no active subscription',

  'role.notFound': 'Role #{id} does not exist',
  'role.nameTaken': 'Role name "{name}" is already taken',
  'role.unknownPermission': 'Unknown permission: {permission}',
  'role.inUse': 'Role {name} is held by {count} users and cannot be deleted',
  'role.builtInRename': 'Built-in role {name} cannot be renamed',
  'role.builtInDelete': 'Built-in role {name} cannot be deleted',
  'role.superAdminFixed': 'super_admin keeps every permission and stays an administrator role',
  'role.permissionNotHeld': 'You cannot grant a permission you do not have: {permission}',

  'dict.typeNotFound': 'Dictionary type #{id} does not exist',
  'dict.typeCodeNotFound': 'Dictionary type {code} does not exist',
  'dict.typeCodeTaken': 'Dictionary code "{code}" is already taken',
  'dict.builtInType': 'Dictionary {code} is used by the product and cannot be renamed or deleted',
  'dict.dataNotFound': 'Dictionary entry #{id} does not exist',
  'dict.valueTaken': 'Value "{value}" already exists in dictionary {code}',
  'dict.parentInvalid': 'The parent must be an entry of the same dictionary',
  'dict.parentCycle': 'An entry cannot be placed under itself or one of its descendants',
  'dict.hasChildren': 'Entry "{label}" has child entries; delete them first',
  'dict.typeChangeWithChildren': 'Entry "{label}" has child entries and cannot move to another dictionary',
  'dict.invalidValue': '"{value}" is not an enabled value of dictionary {code}',

  'log.notFound': 'Log entry #{id} does not exist',

  'health.down': 'The database is unavailable',
} as const;

export type MessageKey = keyof typeof enUS;
export type MessageParams = Readonly<Record<string, string | number>>;

const zhCN: Record<MessageKey, string> = {
  ok: 'ok',
  'errors.internal': '服务器内部错误',
  'errors.notFound': '接口不存在：{method} {path}',
  'errors.badRequest': '请求有误',
  'errors.invalidJson': '请求体不是合法的 JSON',
  'errors.payloadTooLarge': '请求体过大',
  'errors.unsupportedMediaType': '不支持的内容类型',
  'errors.request': '请求无法处理',
  'errors.validation': '{field}：{message}',
  'errors.routeUndeclared': '该接口未声明访问规则',
  'errors.permission': '您没有执行此操作的权限（{permission}）',

  'validation.required': '为必填项',
  'validation.empty': '不能为空',
  'validation.minLength': '不能少于 {limit} 个字符',
  'validation.maxLength': '不能多于 {limit} 个字符',
  'validation.minimum': '必须大于或等于 {limit}',
  'validation.maximum': '必须小于或等于 {limit}',
  'validation.type': '类型必须是 {type}',
  'validation.enum': '必须是以下值之一：{values}',
  'validation.const': '必须等于 {value}',
  'validation.format': '必须是合法的 {format}',
  'validation.pattern': '格式不正确',
  'validation.minItems': '不能少于 {limit} 项',
  'validation.maxItems': '不能多于 {limit} 项',
  'validation.additionalProperties': '不能包含额外的字段',
  'validation.invalid': '不合法',

  'auth.required': '请先登录',
  'auth.tokenMalformed': '登录令牌无效，请重新登录',
  'auth.revoked.disabled': '您的账号已被停用，已退出登录',
  'auth.revoked.password_reset': '您的密码已被重置，请重新登录',
  'auth.revoked.deleted': '您的账号已被删除',
  'auth.revoked.logged_out_elsewhere': '您已在其他地方被退出登录',
  'auth.expired': '登录已过期，请重新登录',
  'auth.badCredentials': '用户名或密码错误',
  'auth.accountDisabled': '该账号已被停用，请联系管理员',
  'auth.locked': '登录失败次数过多，请 {minutes} 分钟后再试',

  'auth.revoked.role_changed': '您的角色已变更，请重新登录',

  'user.notFound': '用户 #{id} 不存在',
  'user.usernameTaken': '用户名“{username}”已被使用',
  'user.roleNotFound': '角色 #{id} 不存在',
  'user.selfRole': '不能修改自己的角色',
  'user.selfDisable': '不能停用自己的账号',
  'user.selfDelete': '不能删除自己的账号',
  'user.lastSuperAdmin': '{username} 是最后一个启用的超级管理员，至少需要保留一个',
  'user.roleTooHigh': '不能授予包含您没有的权限的角色（{role}）',
  'user.targetTooHigh': '不能管理 {username}：其角色拥有您没有的权限',
  'user.hasData': '{username} 有 {count} 条订阅记录，不能删除；请改为停用该账号',
  'subscription.adminRole': '{username} 是管理员角色（{role}），管理员不能订阅',
  'subscription.customDays': '自定义订阅需要填写天数',
  'subscription.notActive': '{username} 当前没有生效的订阅',

  'role.notFound': '角色 #{id} 不存在',
  'role.nameTaken': '角色名“{name}”已被使用',
  'role.unknownPermission': '未知的权限：{permission}',
  'role.inUse': '角色 {name} 仍有 {count} 个用户使用，不能删除',
  'role.builtInRename': '内置角色 {name} 不能改名',
  'role.builtInDelete': '内置角色 {name} 不能删除',
  'role.superAdminFixed': 'super_admin 必须保留全部权限且为管理员角色',
  'role.permissionNotHeld': '不能授予您自己没有的权限：{permission}',

  'dict.typeNotFound': '字典类型 #{id} 不存在',
  'dict.typeCodeNotFound': '字典类型 {code} 不存在',
  'dict.typeCodeTaken': '字典编码“{code}”已被使用',
  'dict.builtInType': '字典 {code} 为系统使用，不能修改编码或删除',
  'dict.dataNotFound': '字典数据 #{id} 不存在',
  'dict.valueTaken': '字典 {code} 中已存在值“{value}”',
  'dict.parentInvalid': '上级必须是同一字典中的数据',
  'dict.parentCycle': '不能把数据放到它自己或它的下级之下',
  'dict.hasChildren': '数据“{label}”有下级数据，请先删除下级',
  'dict.typeChangeWithChildren': '数据“{label}”有下级数据，不能移到其他字典',
  'dict.invalidValue': '“{value}”不是字典 {code} 中已启用的值',

  'log.notFound': '日志 #{id} 不存在',

  'health.down': '数据库不可用',
};

export type Locale = 'zh-CN' | 'en-US';

export const catalogue: Record<Locale, Record<MessageKey, string>> = { 'en-US': enUS, 'zh-CN': zhCN };

export function t(locale: Locale, key: MessageKey, params: MessageParams = {}): string {
  return catalogue[locale][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** zh-CN when the Accept-Language header prefers a Chinese tag, else en-US. */
export function pickLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return 'en-US';
  let best: { tag: string; q: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [rawTag = '', ...rest] = part.trim().split(';');
    const qParam = rest.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const tag = rawTag.trim().toLowerCase();
    if (!tag || Number.isNaN(q) || q <= 0) continue;
    if (best === undefined || q > best.q) best = { tag, q };
  }
  return best !== undefined && (best.tag === 'zh' || best.tag.startsWith('zh-')) ? 'zh-CN' : 'en-US';
}
