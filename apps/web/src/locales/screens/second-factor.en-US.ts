import type { secondFactorZhCN } from './second-factor.zh-CN.ts';

/** English strings of two-step verification; same keys as ./second-factor.zh-CN.ts. */
export const secondFactorEnUS: Record<keyof typeof secondFactorZhCN, string> = {
  'login.secondFactor.title': 'Two-step verification',
  'login.secondFactor.text': 'Enter the 6-digit code your authenticator app shows.',
  'login.secondFactor.code.placeholder': '6-digit code',
  'login.secondFactor.code.errMsg': 'Enter the code',
  'login.secondFactor.recoveryCode.text': 'Enter one of your unused recovery codes; each one works once.',
  'login.secondFactor.recoveryCode.placeholder': 'Recovery code',
  'login.secondFactor.recoveryCode.errMsg': 'Enter a recovery code',
  'login.secondFactor.verify': 'Verify',
  'login.secondFactor.useRecoveryCode': 'Use a recovery code',
  'login.secondFactor.useCode': 'Use the authenticator code',
  'login.secondFactor.back': 'Back to the password',
  'login.secondFactor.enrol.title': 'Set up two-step verification',
  'login.secondFactor.enrol.text':
    'Your account signs in with two-step verification. Scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, …) or type the key in, then enter the 6-digit code it shows.',
  'login.secondFactor.enrol.confirm': 'Confirm and log in',
  'login.secondFactor.saveCodes.title': 'Save your recovery codes',
  'login.secondFactor.saveCodes.continue': 'I have saved them, continue',
  'secondFactor.qrAlt': 'QR code for the authenticator app',
  'secondFactor.secretLabel': 'Key:',
  'secondFactor.recoveryCodes.note':
    'If you lose your phone, sign in with one of these codes instead of a verification code; each works once. They are shown only now: keep them somewhere safe.',
  'secondFactor.recoveryCodes.copy': 'Copy the codes',
  'secondFactor.recoveryCodes.copied': 'Copied',
};
