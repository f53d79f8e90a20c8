import { App, Button, Divider, Drawer, Flex, InputNumber, Segmented, Space, Switch } from 'antd';
import { CopyOutlined, MoonOutlined, ReloadOutlined, SunOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MENU_WIDTH_MAX, MENU_WIDTH_MIN, type AppSettings } from '../../config/settings.ts';
import {
  appStore,
  persistedSettings,
  resetSettings,
  setServerMenu,
  updateSettings,
  useAppState,
  type AppState,
} from '../../lib/settings.ts';
import { themeShades } from '../../lib/theme.ts';
import { fetchServerMenu } from './api/server-menu.ts';
import { ThemeColorPicker } from './ThemeColorPicker.tsx';
import './settings.css';

type Toggle = keyof Pick<
  AppSettings,
  'colorWeak' | 'navbar' | 'menu' | 'topMenu' | 'hideMenu' | 'menuCollapse' | 'footer' | 'tabBar' | 'menuFromServer'
>;

const LAYOUT_TOGGLES: readonly Toggle[] = ['navbar', 'menu', 'topMenu', 'hideMenu', 'menuCollapse', 'footer', 'tabBar'];
const OTHER_TOGGLES: readonly Toggle[] = ['colorWeak', 'menuFromServer'];

function SettingRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Flex justify="space-between" align="center" className="settings-row">
      <span>{label}</span>
      {children}
    </Flex>
  );
}

/**
 * The settings drawer (docs/product.md "The back office"): every app setting, live. Temporary: it closes
 * on the mask or Esc. Copy puts the settings on the clipboard as JSON; reset restores the defaults.
 */
export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const settings = useAppState((s: AppState) => s);

  /** Spec §4: turning on the server menu fetches it; a message says "loading", then "success" or "error". */
  async function setMenuFromServer(on: boolean) {
    if (!on) {
      updateSettings({ menuFromServer: false, serverMenu: null });
      return;
    }
    const key = 'server-menu';
    void message.open({ key, type: 'loading', content: t('settings.serverMenu.loading'), duration: 0 });
    try {
      const menu = await fetchServerMenu();
      setServerMenu(menu);
      updateSettings({ menuFromServer: true });
      void message.open({ key, type: 'success', content: t('settings.serverMenu.success') });
    } catch {
      updateSettings({ menuFromServer: false, serverMenu: null });
      void message.open({ key, type: 'error', content: t('settings.serverMenu.error') });
    }
  }

  function toggle(key: Toggle, on: boolean) {
    if (key === 'menuFromServer') return void setMenuFromServer(on);
    // Spec §4: turning on the top menu un-collapses the side menu.
    if (key === 'topMenu' && on) return updateSettings({ topMenu: true, menuCollapse: false });
    updateSettings({ [key]: on });
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(JSON.stringify(persistedSettings(appStore.get()), null, 2));
      void message.success(t('settings.copy.success'));
    } catch {
      void message.error(t('settings.copy.error'));
    }
  }

  const shades = themeShades(settings.themeColor, settings.theme);
  const switchRow = (key: Toggle) => (
    <SettingRow key={key} label={t(`settings.${key}`)}>
      <Switch size="small" checked={settings[key]} onChange={(on) => toggle(key, on)} data-testid={`settings-${key}`} />
    </SettingRow>
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('settings.title')}
      size={320}
      data-testid="settings-drawer"
      footer={
        <Space>
          <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="settings-copy">
            {t('settings.copy')}
          </Button>
          <Button icon={<ReloadOutlined />} onClick={resetSettings} data-testid="settings-reset">
            {t('settings.reset')}
          </Button>
        </Space>
      }
    >
      <Divider titlePlacement="start" plain>
        {t('settings.section.theme')}
      </Divider>
      <SettingRow label={t('settings.theme')}>
        <Segmented
          size="small"
          value={settings.theme}
          onChange={(theme) => updateSettings({ theme: theme as AppSettings['theme'] })}
          options={[
            { value: 'light', icon: <SunOutlined />, label: t('settings.theme.light') },
            { value: 'dark', icon: <MoonOutlined />, label: t('settings.theme.dark') },
          ]}
          data-testid="settings-theme"
        />
      </SettingRow>
      <SettingRow label={t('settings.themeColor')}>
        <ThemeColorPicker />
      </SettingRow>
      <div className="settings-shades" data-testid="settings-shades" aria-label={t('settings.themeColor.shades')}>
        {shades.map((shade, index) => (
          <span key={index} style={{ background: shade }} title={`${index + 1}: ${shade}`} />
        ))}
      </div>
      <Divider titlePlacement="start" plain>
        {t('settings.section.layout')}
      </Divider>
      {LAYOUT_TOGGLES.map(switchRow)}
      <SettingRow label={t('settings.menuWidth')}>
        <InputNumber
          size="small"
          style={{ width: 80 }}
          min={MENU_WIDTH_MIN}
          max={MENU_WIDTH_MAX}
          step={10}
          value={settings.menuWidth}
          onChange={(value) => {
            if (typeof value === 'number' && value >= MENU_WIDTH_MIN && value <= MENU_WIDTH_MAX)
              updateSettings({ menuWidth: Math.round(value) });
          }}
          data-testid="settings-menuWidth"
        />
      </SettingRow>
      <Divider titlePlacement="start" plain>
        {t('settings.section.other')}
      </Divider>
      {OTHER_TOGGLES.map(switchRow)}
    </Drawer>
  );
}
