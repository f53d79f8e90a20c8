import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SecondFactorState } from '@clearplay/contract';
import { setLocale } from '../../../lib/i18n.ts';
import { serveApi } from '../../../test/fake-api.ts';
import { renderInApp } from '../../../test/render.tsx';
import { SecondFactorCard } from './SecondFactorCard.tsx';

/** "Two-step verification" in the user settings (decision 0091). */
const OFF: SecondFactorState = { enabled: false, required: false, exempt: false, enabledTime: null, recoveryCodesLeft: 0 };
const CODES = Array.from({ length: 10 }, (_, i) => `abcde-fg${i}hj`);

function serve(initial: SecondFactorState) {
  let state = initial;
  return serveApi((call) => {
    if (call.path === '/api/admin/account/second-factor') return { status: 200, msg: 'ok', data: state };
    if (call.path === '/api/admin/account/second-factor/enrol')
      return {
        status: 200,
        msg: 'ok',
        data: { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrCode: 'data:image/png;base64,AAAA' },
      };
    if (call.path === '/api/admin/account/second-factor/confirm') {
      if ((call.body as { code: string }).code !== '123456') return { status: 400, msg: '验证码错误', data: null };
      state = { ...state, enabled: true, enabledTime: '2026-11-27T00:00:00.000Z', recoveryCodesLeft: 10 };
      return { status: 200, msg: 'ok', data: { recoveryCodes: CODES } };
    }
    if (call.path === '/api/admin/account/second-factor/disable') {
      state = OFF;
      return { status: 200, msg: 'ok', data: null };
    }
    return { status: 404, msg: 'not found', data: null };
  });
}

describe('two-step verification in the user settings', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('turns on: QR code and key, a wrong code refused, the right one shows the ten recovery codes once with a copy button', async () => {
    const { calls } = serve(OFF);
    const { user } = renderInApp(<SecondFactorCard />);
    await user.click(await screen.findByTestId('account-second-factor-enable'));
    expect(await screen.findByRole('img', { name: '验证器应用的二维码' })).toBeTruthy();
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();

    await user.type(screen.getByTestId('account-second-factor-code'), '000000');
    await user.click(screen.getByTestId('account-second-factor-confirm'));
    expect(await screen.findByText('验证码错误')).toBeTruthy();

    await user.clear(screen.getByTestId('account-second-factor-code'));
    await user.type(screen.getByTestId('account-second-factor-code'), '123456');
    await user.click(screen.getByTestId('account-second-factor-confirm'));
    expect(await screen.findAllByTestId('recovery-code')).toHaveLength(10);
    await user.click(screen.getByTestId('recovery-codes-copy'));
    expect(await screen.findByText('已复制')).toBeTruthy();
    // user-event's clipboard stands in for the browser's
    expect(await navigator.clipboard.readText()).toBe(CODES.join('\n'));

    await user.click(screen.getByTestId('account-second-factor-codes-saved'));
    await waitFor(() => expect(screen.queryByTestId('recovery-code')).toBeNull());
    expect((await screen.findByTestId('account-second-factor-on')).textContent).toContain('剩余 10 个恢复码');
    expect(calls.filter((c) => c.path === '/api/admin/account/second-factor/confirm').map((c) => c.body)).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
  });

  it('turns off with a code where it is optional; where it is required there is no button', async () => {
    const { calls } = serve({ ...OFF, enabled: true, enabledTime: '2026-11-27T00:00:00.000Z', recoveryCodesLeft: 9 });
    const { user } = renderInApp(<SecondFactorCard />);
    await user.click(await screen.findByTestId('account-second-factor-disable'));
    await user.type(await screen.findByTestId('account-second-factor-disable-code'), '654321');
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '关闭两步验证' }));
    expect(await screen.findByTestId('account-second-factor-off')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/admin/account/second-factor/disable')?.body).toEqual({ code: '654321' });
  });

  it('says a role must keep it, and a demo account that it is exempt, in both languages', async () => {
    serve({ ...OFF, enabled: true, required: true, enabledTime: '2026-11-27T00:00:00.000Z', recoveryCodesLeft: 10 });
    const first = renderInApp(<SecondFactorCard />);
    expect(await screen.findByText('您的角色必须使用两步验证，不能关闭。')).toBeTruthy();
    expect(screen.queryByTestId('account-second-factor-disable')).toBeNull();
    first.unmount();

    vi.unstubAllGlobals();
    serve({ ...OFF, exempt: true });
    await act(() => setLocale('en-US'));
    try {
      renderInApp(<SecondFactorCard />);
      expect(await screen.findByText('This is a demo account: two-step verification is not required.')).toBeTruthy();
      expect(screen.getByTestId('account-second-factor-enable').textContent).toBe('Turn on');
    } finally {
      await act(() => setLocale('zh-CN'));
    }
  });
});
