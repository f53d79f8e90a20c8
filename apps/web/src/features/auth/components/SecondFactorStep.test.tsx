import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveApi, type ApiCall } from '../../../test/fake-api.ts';
import { renderLogin } from '../test/render-login.tsx';

/**
 * Two-step verification at sign-in (decision 0091): after the right password the form asks for
 * the authenticator's code (or a recovery code), or, for an account that must have one, sets up
 * the app first and shows the ten recovery codes once.
 */
const SESSION = { token: 'cp_test', expiresAt: '2099-01-01T00:00:00.000Z' };
const CODES = Array.from({ length: 10 }, (_, i) => `abcde-fgh${String(i).padStart(2, '0')}`.slice(0, 11));

function serve(step: 'required' | 'enrol', finish: (call: ApiCall) => { status: number; msg: string; data: unknown }) {
  return serveApi((call) => {
    if (call.path === '/api/admin/user/login')
      return { status: 200, msg: 'ok', data: { secondFactor: step, ticket: 'st_ticket', expiresAt: '2099-01-01T00:00:00.000Z' } };
    if (call.path === '/api/admin/user/login/enrol')
      return {
        status: 200,
        msg: 'ok',
        data: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrCode: 'data:image/png;base64,AAAA' },
      };
    if (call.path === '/api/admin/user/login/second-factor') return finish(call);
    if (call.path === '/api/admin/account/profile') return { status: 200, msg: 'ok', data: { locale: null } };
    return { status: 404, msg: 'not found', data: null };
  });
}

async function password(user: ReturnType<typeof renderLogin>['user']) {
  await user.type(screen.getByTestId('login-username'), 'superadmin');
  await user.type(screen.getByTestId('login-password'), 'secret');
  await user.click(screen.getByTestId('login-submit'));
}

describe('the second step of a sign-in', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the 6-digit code after the password, says why a code is refused, and signs in with the right one', async () => {
    let tries = 0;
    const { calls } = serve('required', () =>
      ++tries === 1 ? { status: 400, msg: '验证码错误', data: null } : { status: 200, msg: 'ok', data: SESSION },
    );
    const { user } = renderLogin();
    await password(user);
    const code = await screen.findByTestId('login-code');
    expect(screen.getByText('两步验证')).toBeTruthy();
    expect(screen.queryByTestId('login-password')).toBeNull();

    await user.type(code, '12a3456');
    expect((code as HTMLInputElement).value).toBe('123456');
    await user.click(screen.getByTestId('login-code-submit'));
    await waitFor(() => expect(screen.getByTestId('login-error').textContent).toBe('验证码错误'));

    await user.type(screen.getByTestId('login-code'), '654321');
    await user.click(screen.getByTestId('login-code-submit'));
    expect(await screen.findByTestId('workplace')).toBeTruthy();
    const sent = calls.filter((c) => c.path === '/api/admin/user/login/second-factor').map((c) => c.body);
    expect(sent).toEqual([
      { ticket: 'st_ticket', code: '123456' },
      { ticket: 'st_ticket', code: '654321' },
    ]);
  });

  it('takes a recovery code instead ("use a recovery code")', async () => {
    const { calls } = serve('required', () => ({ status: 200, msg: 'ok', data: SESSION }));
    const { user } = renderLogin();
    await password(user);
    await user.click(await screen.findByText('使用恢复码'));
    await user.type(screen.getByTestId('login-recovery-code'), 'abcde-fghjk');
    await user.click(screen.getByTestId('login-code-submit'));
    expect(await screen.findByTestId('workplace')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/admin/user/login/second-factor')?.body).toEqual({
      ticket: 'st_ticket',
      recoveryCode: 'abcde-fghjk',
    });
  });

  it('sets up the app for an account that must have one: QR code and key, the first code, then the ten recovery codes once', async () => {
    const { calls } = serve('enrol', () => ({ status: 200, msg: 'ok', data: { ...SESSION, recoveryCodes: CODES } }));
    const { user } = renderLogin();
    await password(user);
    expect(await screen.findByText('设置两步验证')).toBeTruthy();
    expect(await screen.findByTestId('login-enrol-secret')).toHaveProperty('textContent', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(screen.getByRole('img', { name: '验证器应用的二维码' }).getAttribute('src')).toBe('data:image/png;base64,AAAA');
    expect(screen.queryByText('使用恢复码')).toBeNull();

    await user.type(screen.getByTestId('login-code'), '123456');
    await user.click(screen.getByTestId('login-code-submit'));
    expect(await screen.findAllByTestId('recovery-code')).toHaveLength(10);
    expect(screen.getByText('复制恢复码')).toBeTruthy();
    // Not signed in further until the codes are put away.
    expect(screen.queryByTestId('workplace')).toBeNull();
    await user.click(screen.getByTestId('login-continue'));
    expect(await screen.findByTestId('workplace')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/admin/user/login/enrol')?.body).toEqual({ ticket: 'st_ticket' });
  });

  it('goes back to the password', async () => {
    serve('required', () => ({ status: 200, msg: 'ok', data: SESSION }));
    const { user } = renderLogin();
    await password(user);
    await user.click(await screen.findByTestId('login-back'));
    expect(await screen.findByTestId('login-password')).toBeTruthy();
  });
});
