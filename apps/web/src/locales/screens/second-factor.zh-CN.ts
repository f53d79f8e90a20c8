/**
 * Chinese strings of two-step verification (decision 0091): the sign-in's second step and the
 * recovery codes. In the screens' chunk, not the login page's first load: the second step loads
 * it when a sign-in needs it.
 */
export const secondFactorZhCN = {
  'login.secondFactor.title': '两步验证',
  'login.secondFactor.text': '请输入验证器应用中显示的 6 位验证码。',
  'login.secondFactor.code.placeholder': '6 位验证码',
  'login.secondFactor.code.errMsg': '请输入验证码',
  'login.secondFactor.recoveryCode.text': '请输入一个未使用过的恢复码，每个恢复码只能使用一次。',
  'login.secondFactor.recoveryCode.placeholder': '恢复码',
  'login.secondFactor.recoveryCode.errMsg': '请输入恢复码',
  'login.secondFactor.verify': '验证',
  'login.secondFactor.useRecoveryCode': '使用恢复码',
  'login.secondFactor.useCode': '使用验证码',
  'login.secondFactor.back': '返回重新输入密码',
  'login.secondFactor.enrol.title': '设置两步验证',
  'login.secondFactor.enrol.text':
    '您的账号需要两步验证才能登录。请用验证器应用（如 Google Authenticator、Microsoft Authenticator）扫描二维码，或手动输入密钥，然后输入应用显示的 6 位验证码。',
  'login.secondFactor.enrol.confirm': '确认并登录',
  'login.secondFactor.saveCodes.title': '保存您的恢复码',
  'login.secondFactor.saveCodes.continue': '我已保存，继续',
  'secondFactor.qrAlt': '验证器应用的二维码',
  'secondFactor.secretLabel': '密钥：',
  'secondFactor.recoveryCodes.note': '手机丢失时，可用恢复码代替验证码登录，每个只能使用一次。恢复码只显示这一次，请妥善保存。',
  'secondFactor.recoveryCodes.copy': '复制恢复码',
  'secondFactor.recoveryCodes.copied': '已复制',
} as const;
