import { useEffect, useState } from 'react';
import { Button, Dropdown, Space, Tooltip } from 'antd';
import {
  FullscreenExitOutlined,
  FullscreenOutlined,
  GlobalOutlined,
  MenuOutlined,
  MoonOutlined,
  SettingOutlined,
  SunOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TRACKED_EVENTS } from '@clearplay/contract/constants';
import { APP_NAME } from '../../config/settings.ts';
import { MessageBell } from '../../features/messages/index.ts';
import { trackEvent } from '../../features/tracking/index.ts';
import { LOCALE_OPTIONS, setLocale, type Locale } from '../../lib/i18n.ts';
import { setTheme, useAppState } from '../../lib/settings.ts';
import { SideMenu } from './SideMenu.tsx';
import { UserMenu } from './UserMenu.tsx';

function useFullscreen() {
  const [isFullscreen, setIsFullscreen] = useState(() => Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setIsFullscreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    const action = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    action.catch(() => undefined); // refused by the browser (no user gesture, iframe): nothing to do
  };
  return { isFullscreen, toggle, supported: document.fullscreenEnabled };
}

export interface NavbarProps {
  /** Opens the settings drawer. */
  onOpenSettings: () => void;
  /** Mobile: opens the menu drawer (absent when the menu is not shown as a drawer). */
  onOpenMenu?: () => void;
  /** "Top menu" on (desktop): the menu sits in the navbar, horizontal. */
  topMenu: boolean;
}

export function Navbar({ onOpenSettings, onOpenMenu, topMenu }: NavbarProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const theme = useAppState((s) => s.theme);
  const { isFullscreen, toggle, supported } = useFullscreen();

  const themeLabel = theme === 'dark' ? t('navbar.theme.toLight') : t('navbar.theme.toDark');
  const fullscreenLabel = isFullscreen ? t('navbar.fullscreen.exit') : t('navbar.fullscreen.enter');

  return (
    <div className="navbar">
      <div className="navbar-brand">
        {onOpenMenu ? (
          <Button
            data-testid="menu-drawer-open"
            type="text"
            icon={<MenuOutlined />}
            aria-label={t('navbar.menu.open')}
            onClick={onOpenMenu}
          />
        ) : null}
        <span className="navbar-logo" aria-hidden="true" />
        <span className="navbar-title">{APP_NAME}</span>
      </div>
      {topMenu ? (
        <div className="navbar-menu">
          <SideMenu mode="horizontal" />
        </div>
      ) : null}
      <Space size={8} className="navbar-actions">
        <MessageBell />
        <Dropdown
          trigger={['click']}
          menu={{
            items: LOCALE_OPTIONS.map((option) => ({ key: option.value, label: option.label })),
            selectable: true,
            selectedKeys: [i18n.language],
            // Some answers carry the server's text in the reader's language (ledger remarks):
            // what is on screen is fetched again in the new one.
            onClick: ({ key }) => {
              trackEvent(TRACKED_EVENTS.localeChange, { to: key });
              void setLocale(key as Locale).then(() => queryClient.invalidateQueries());
            },
          }}
        >
          <Button data-testid="lang-switch" shape="circle" icon={<GlobalOutlined />} aria-label={t('navbar.language')} />
        </Dropdown>
        <Tooltip title={themeLabel}>
          <Button
            data-testid="theme-switch"
            shape="circle"
            icon={theme === 'dark' ? <SunOutlined /> : <MoonOutlined />}
            aria-label={themeLabel}
            onClick={() => {
              trackEvent(TRACKED_EVENTS.themeToggle, { to: theme === 'dark' ? 'light' : 'dark' });
              setTheme(theme === 'dark' ? 'light' : 'dark');
            }}
          />
        </Tooltip>
        {supported ? (
          <Tooltip title={fullscreenLabel}>
            <Button
              data-testid="fullscreen-switch"
              shape="circle"
              icon={isFullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              aria-label={fullscreenLabel}
              onClick={toggle}
            />
          </Tooltip>
        ) : null}
        <Tooltip title={t('navbar.settings')}>
          <Button
            data-testid="settings-open"
            shape="circle"
            icon={<SettingOutlined />}
            aria-label={t('navbar.settings')}
            onClick={onOpenSettings}
          />
        </Tooltip>
        <UserMenu />
      </Space>
    </div>
  );
}
