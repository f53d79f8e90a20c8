import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInApp } from '../test/render.tsx';
import { StatusSwitch } from './StatusSwitch.tsx';

/** The users screen's switch: it asks before it disables (or enables) anyone. */
const askFirst = (next: 0 | 1) =>
  next === 0 ? { title: '停用用户“shop01”？', okText: '停用' } : { title: '启用用户“shop01”？', okText: '启用' };

describe('StatusSwitch with a confirmation', () => {
  it('a click on an enabled user’s switch asks first; cancel leaves them enabled and sends nothing', async () => {
    const onChange = vi.fn(() => Promise.resolve());
    const { user } = renderInApp(<StatusSwitch status={1} onChange={onChange} confirm={askFirst} data-testid="switch" />);
    await user.click(screen.getByTestId('switch'));
    expect((await screen.findByRole('dialog')).textContent).toContain('停用用户“shop01”？');
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByTestId('switch').getAttribute('aria-checked')).toBe('true');
  });

  it('OK in the question disables them', async () => {
    const onChange = vi.fn(() => Promise.resolve());
    const { user } = renderInApp(<StatusSwitch status={1} onChange={onChange} confirm={askFirst} data-testid="switch" />);
    await user.click(screen.getByTestId('switch'));
    await user.click(await screen.findByRole('button', { name: /停\s*用/ }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(0));
    expect((await screen.findAllByText('状态设置成功')).length).toBeGreaterThan(0);
  });
});
