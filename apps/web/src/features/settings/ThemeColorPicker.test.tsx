import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, THEME_COLOR_PRESETS } from '../../config/settings.ts';
import { appStore, resetSettings } from '../../lib/settings.ts';
import { renderInApp } from '../../test/render.tsx';
import { ThemeColorPicker } from './ThemeColorPicker.tsx';

afterEach(() => act(() => resetSettings()));

const presetBlocks = () => [...document.querySelectorAll('.ant-color-picker-presets-color')];

describe('the theme colour control (antd ColorPicker with presets, decision 0075)', () => {
  it('shows the saved colour; its presets start with the default, which is checked', async () => {
    expect(DEFAULT_SETTINGS.themeColor).toBe('#165DFF');
    expect(THEME_COLOR_PRESETS[0]).toBe('#165DFF');
    const { user } = renderInApp(<ThemeColorPicker />);
    const trigger = screen.getByTestId('settings-themeColor-trigger');
    expect(trigger.textContent?.toUpperCase()).toContain('#165DFF');
    await user.click(trigger);
    await waitFor(() => expect(presetBlocks()).toHaveLength(THEME_COLOR_PRESETS.length));
    expect(screen.getByText('推荐')).toBeTruthy();
    expect(presetBlocks()[0]!.className).toContain('ant-color-picker-presets-color-checked');
  });

  it('a preset clicked becomes the theme colour, saved in upper case', async () => {
    const { user } = renderInApp(<ThemeColorPicker />);
    await user.click(screen.getByTestId('settings-themeColor-trigger'));
    await waitFor(() => expect(presetBlocks()).toHaveLength(THEME_COLOR_PRESETS.length));
    await user.click(presetBlocks()[THEME_COLOR_PRESETS.indexOf('#EB2F96')]!);
    await waitFor(() => expect(appStore.get().themeColor).toBe('#EB2F96'));
    expect(screen.getByTestId('settings-themeColor-trigger').textContent?.toUpperCase()).toContain('#EB2F96');
  });

  it('a hex typed in the panel becomes the theme colour once it is a whole colour', async () => {
    const { user } = renderInApp(<ThemeColorPicker />);
    await user.click(screen.getByTestId('settings-themeColor-trigger'));
    const hex = await waitFor(() => {
      const input = document.querySelector<HTMLInputElement>('.ant-color-picker-hex-input input');
      expect(input).toBeTruthy();
      return input!;
    });
    fireEvent.change(hex, { target: { value: '12ab' } });
    expect(appStore.get().themeColor).toBe('#165DFF');
    fireEvent.change(hex, { target: { value: '12ab9f' } });
    await waitFor(() => expect(appStore.get().themeColor).toBe('#12AB9F'));
  });

  it('follows the store when the settings are reset elsewhere', async () => {
    renderInApp(<ThemeColorPicker />);
    act(() => appStore.set((prev) => ({ ...prev, themeColor: '#722ED1' })));
    await waitFor(() => expect(screen.getByTestId('settings-themeColor-trigger').textContent?.toUpperCase()).toContain('#722ED1'));
    act(() => resetSettings());
    await waitFor(() => expect(screen.getByTestId('settings-themeColor-trigger').textContent?.toUpperCase()).toContain('#165DFF'));
  });
});
