import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../../../test/fake-api.ts';
import { renderInApp } from '../../../test/render.tsx';
import { DictTypeFormModal } from './DictTypeFormModal.tsx';

/** One character outside the BMP: one code point, two UTF-16 units. */
const EMOJI = '😀';

/**
 * Text limits count characters as the server does (code points, decision 0115): a 64-character
 * field takes 64 emoji, where the browser's maxLength (UTF-16 units) stopped at 32.
 */
describe('the dictionary type form counts characters as the server does', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps 64 emoji typed into the 64-character name, not the 65th, and sends them', async () => {
    const { calls } = serveApi(() => ({ status: 200, msg: 'ok', data: null }));
    // Keys one after another without a pause between them (130 UTF-16 units to type).
    const { user } = renderInApp(<DictTypeFormModal open type={null} onClose={() => undefined} />, {
      user: userEvent.setup({ delay: null }),
    });
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByTestId('dict-type-form-code'), 'emoji_test');
    const name = within(dialog).getByTestId('dict-type-form-name') as HTMLInputElement;

    await user.type(name, EMOJI.repeat(65));
    expect([...name.value]).toHaveLength(64);
    expect(name.value).toBe(EMOJI.repeat(64));
    // Nothing left over: no half of the 65th (a lone surrogate).
    expect(name.value.length).toBe(128);

    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path === '/api/admin/dict/type')).toBeTruthy());
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ code: 'emoji_test', name: EMOJI.repeat(64) });
  });

  it('cuts a pasted text at the limit between characters and counts the remark in characters', async () => {
    serveApi(() => ({ status: 200, msg: 'ok', data: null }));
    renderInApp(<DictTypeFormModal open type={null} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByTestId('dict-type-form-name') as HTMLInputElement;
    fireEvent.change(name, { target: { value: `a${EMOJI.repeat(70)}` } });
    expect(name.value).toBe(`a${EMOJI.repeat(63)}`);

    const remark = within(dialog).getByRole('textbox', { name: '备注' });
    fireEvent.change(remark, { target: { value: `${EMOJI}𠮷${EMOJI}` } });
    // showCount beside the limit: three characters, not six units.
    expect(within(dialog).getByText('3 / 500')).toBeTruthy();
  });
});
