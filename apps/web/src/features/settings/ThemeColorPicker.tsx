import { Flex, Tooltip } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { THEME_COLOR_PRESETS } from '../../config/settings.ts';
import { updateSettings, useAppState } from '../../lib/settings.ts';

const setColor = (value: string) => {
  if (/^#[0-9a-fA-F]{6}$/.test(value)) updateSettings({ themeColor: value.toUpperCase() });
};

/**
 * The theme colour (spec §3, §9): the preset colours as swatches, and any colour through the
 * browser's colour input. Not antd's ColorPicker: its presets module (antd Collapse) is the one
 * antd's Button styles import a helper from, so using it anywhere moves ~7 KB gzip into the login
 * page's first load, over its budget (decision 0055).
 */
export function ThemeColorPicker() {
  const { t } = useTranslation();
  const themeColor = useAppState((s) => s.themeColor);
  return (
    <Flex vertical gap={6} data-testid="settings-themeColor">
      <Flex gap={6} wrap role="radiogroup" aria-label={t('settings.themeColor.presets')}>
        {THEME_COLOR_PRESETS.map((color) => {
          const active = color.toUpperCase() === themeColor.toUpperCase();
          return (
            <button
              key={color}
              type="button"
              role="radio"
              aria-checked={active}
              aria-label={color}
              title={color}
              className="settings-swatch"
              style={{ background: color }}
              data-testid={`settings-themeColor-${color}`}
              onClick={() => setColor(color)}
            >
              {active ? <CheckOutlined /> : null}
            </button>
          );
        })}
      </Flex>
      <Tooltip title={t('settings.themeColor.custom')}>
        <label className="settings-custom-color">
          <input
            type="color"
            value={themeColor.toLowerCase()}
            onChange={(event) => setColor(event.target.value)}
            aria-label={t('settings.themeColor.custom')}
            data-testid="settings-themeColor-input"
          />
          <code>{themeColor}</code>
        </label>
      </Tooltip>
    </Flex>
  );
}
