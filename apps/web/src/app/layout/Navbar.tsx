import { useEffect, useState } from 'react';
import { Button, Dropdown, Space, Tooltip } from 'antd';
import {
  FullscreenExitOutlined,
  FullscreenOutlined,
  GlobalOutlined,
  IdcardOutlined,
  LogoutOutlined,
  MenuOutlined,
  MoonOutlined,
  SettingOutlined,
  SunOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '../../components/UserAvatar.tsx';
import { RoleName, TRACKED_EVENTS } from '@clearplay/contract/constants';
import { APP_NAME } from '../../config/settings.ts';
import { MessageBell } from '../../features/messages/index.ts';
import { trackEvent } from '../../features/tracking/index.ts';
import { ViewAsModal } from '../../features/view-as/index.ts';
import { useCurrentUser } from '../../lib/current-user.ts';
import { LOCALE_OPTIONS, setLocale, type Locale } from '../../lib/i18n.ts';
import { setTheme, useAppState } from '../../lib/settings.ts';
import { useLogout } from '../session.ts';
import { enterView, useEndView } from '../view-as.tsx';
import { SideMenu } from './SideMenu.tsx';

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
  /** Opens the settings drawer (spec §2). */
  onOpenSettings: () => void;
  /** Mobile: opens the menu drawer (absent when the menu is not shown as a drawer). */
  onOpenMenu?: () => void;
  /** "Top menu" on (desktop): the menu sits in the navbar, horizontal (spec §4). */
  topMenu: boolean;
}

export function Navbar({ onOpenSettings, onOpenMenu, topMenu }: NavbarProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const theme = useAppState((s) => s.theme);
  const { isFullscreen, toggle, supported } = useFullscreen();
  const logout = useLogout(() => navigate('/login', { replace: true }));
  // Switch roles (decision 0060): offered to a super admin who is not viewing; "switch back" while viewing.
  const [viewAsOpen, setViewAsOpen] = useState(false);
  const endView = useEndView();
  const canSwitchRoles = user?.role.name === RoleName.SUPER_ADMIN && user.viewAs === undefined;
  const viewing = user?.viewAs !== undefined;

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
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              ...(canSwitchRoles
                ? [{ key: 'view-as', icon: <SwapOutlined />, label: <span data-testid="user-view-as">{t('viewAs.menu')}</span> }]
                : []),
              ...(viewing
                ? [
                    {
                      key: 'view-as-end',
                      icon: <SwapOutlined />,
                      label: <span data-testid="user-view-as-end">{t('viewAs.switchBack')}</span>,
                      disabled: endView.isPending,
                    },
                  ]
                : []),
              { key: 'info', icon: <IdcardOutlined />, label: <span data-testid="user-info">{t('navbar.userInfo')}</span> },
              { key: 'setting', icon: <SettingOutlined />, label: <span data-testid="user-setting">{t('navbar.userSetting')}</span> },
              { type: 'divider' },
              {
                key: 'logout',
                icon: <LogoutOutlined />,
                label: <span data-testid="logout">{t('navbar.logout')}</span>,
                disabled: logout.isPending,
              },
            ],
            onClick: ({ key }) => {
              if (key === 'logout') logout.mutate();
              else if (key === 'view-as') setViewAsOpen(true);
              else if (key === 'view-as-end') endView.mutate();
              else if (key === 'info') void navigate('/user/info');
              else if (key === 'setting') void navigate('/user/setting');
            },
          }}
        >
          <Button type="text" data-testid="user-menu" className="navbar-user">
            <UserAvatar size="small" avatar={user?.avatar} name={user?.nickname || user?.username} data-testid="navbar-avatar" />
            <span className="navbar-nickname">{user?.nickname || user?.username}</span>
          </Button>
        </Dropdown>
      </Space>
      {canSwitchRoles ? <ViewAsModal open={viewAsOpen} onClose={() => setViewAsOpen(false)} onSwitched={enterView} /> : null}
    </div>
  );
}
