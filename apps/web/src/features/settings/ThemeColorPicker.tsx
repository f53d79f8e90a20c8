import { useState } from 'react';
import { ColorPicker } from 'antd';
import type { ColorPickerProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { THEME_COLOR_PRESETS } from '../../config/settings.ts';
import { updateSettings, useAppState } from '../../lib/settings.ts';

type PickerColor = Parameters<NonNullable<ColorPickerProps['onChange']>>[0];

/** Saves a colour the picker settled on; its hex is `#rrggbb` (no alpha: `disabledAlpha`). */
const setColor = (color: PickerColor) => {
  const value = color.toHexString();
  if (/^#[0-9a-fA-F]{6}$/.test(value)) updateSettings({ themeColor: value.toUpperCase() });
};

/**
 * The theme colour: antd's ColorPicker with the preset colours (the default,
 * #165DFF, first) and any colour through its panel or hex input. The setting changes when a
 * pick is complete (a preset, a typed hex, the end of a drag), not at every step of a drag:
 * each change recomputes antd's tokens for the whole page. Meanwhile the picker shows the
 * colour being dragged. antd's Button and Tag styles import a helper from the module holding
 * the presets (antd Collapse); vite.config.ts `antdIsBrightOnly` points them at that helper
 * alone, so this picker stays in the drawer's chunk (decisions 0055, 0075).
 */
export function ThemeColorPicker() {
  const { t } = useTranslation();
  const themeColor = useAppState((s) => s.themeColor);
  const [dragging, setDragging] = useState<PickerColor>();
  return (
    <span data-testid="settings-themeColor">
      <ColorPicker
        size="small"
        format="hex"
        disabledAlpha
        disabledFormat
        showText
        value={dragging ?? themeColor}
        presets={[{ label: t('settings.themeColor.presets'), colors: [...THEME_COLOR_PRESETS], key: 'presets' }]}
        onChange={setDragging}
        onChangeComplete={(color) => {
          setDragging(undefined);
          setColor(color);
        }}
        aria-label={t('settings.themeColor.custom')}
        data-testid="settings-themeColor-trigger"
      />
    </span>
  );
}
