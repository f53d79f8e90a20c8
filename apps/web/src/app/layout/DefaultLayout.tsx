import { App as AntApp, Button, ConfigProvider, Drawer, Layout, Tooltip, type ThemeConfig } from 'antd';
import { MenuOutlined, SettingOutlined } from '@ant-design/icons';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import '../../lib/dayjs.ts';
import { MessageBell } from '../../features/messages/index.ts';
import { queryClient } from '../../lib/query-client.ts';
import { updateSettings, useAppState } from '../../lib/settings.ts';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { Footer } from './Footer.tsx';
import { KeepAliveOutlet } from './KeepAliveOutlet.tsx';
import { Navbar } from './Navbar.tsx';
import { SideMenu } from './SideMenu.tsx';
import { TabBar } from './TabBar.tsx';
import { UserMenu } from './UserMenu.tsx';
import { useDevice } from './use-device.ts';
import { antdStylesheetLoaded } from './antd-stylesheet.ts';
import { ViewAsBar } from '../view-as.tsx';
import './layout.css';

// The settings drawer is a chunk of its own, fetched the first time it opens.
const SettingsDrawer = lazy(() => import('../../features/settings/SettingsDrawer.tsx'));

/**
 * antd's zero-runtime mode (decision 0120): with its static stylesheet in the page, antd's
 * components under the layout skip generating their styles; the theme (algorithm, colour) still
 * reaches them through the CSS variables antd sets at run time.
 */
const ZERO_RUNTIME: ThemeConfig = { zeroRuntime: true };

/**
 * The default layout of every logged-in screen: navbar, side menu, tab bar, breadcrumbs,
 * footer, and the settings drawer (docs/product.md "The back office"). Below 992 px (device 'mobile') the side menu is
 * a drawer opened from the navbar. It also provides TanStack Query to the screens inside it
 * (public screens that need server data wrap themselves in the same QueryClientProvider).
 */
export default function DefaultLayout() {
  const { t } = useTranslation();
  useDevice();
  const mobile = useAppState((s) => s.device === 'mobile');
  const navbar = useAppState((s) => s.navbar);
  const menuShown = useAppState((s) => s.menu && !s.hideMenu);
  const topMenu = useAppState((s) => s.topMenu);
  const menuWidth = useAppState((s) => s.menuWidth);
  const collapsed = useAppState((s) => s.menuCollapse);
  const tabBar = useAppState((s) => s.tabBar);
  const footer = useAppState((s) => s.footer);
  const sider = menuShown && !topMenu && !mobile;

  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsLoaded, setSettingsLoaded] = useState(false);
  const openSettings = () => {
    setSettingsLoaded(true);
    setSettingsOpen(true);
  };
  // The mobile menu is open on the page it was opened on: navigating (a tap in it, back/forward) closes it.
  const { pathname } = useLocation();
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenAt(open ? pathname : null);
  // Fixed for the layout's life: antd reads the mode once per component.
  const [zeroRuntime] = useState(antdStylesheetLoaded);

  const layout = (
    <QueryClientProvider client={queryClient}>
      {/* antd's App: message / modal / notification with the theme and locale (App.useApp()). */}
      <AntApp component={false}>
        <Layout
          className={['app-layout', mobile ? 'app-layout-mobile' : '', navbar ? '' : 'app-layout-floating'].filter(Boolean).join(' ')}
          data-testid="app-layout"
          data-device={mobile ? 'mobile' : 'desktop'}
          // The location the layout has rendered: a navigation is done when it is the address's.
          data-path={pathname}
        >
          {/* Switch roles (decision 0060): who the super admin is viewing as, and the way back. */}
          <ViewAsBar />
          {navbar ? (
            <Layout.Header className="app-navbar">
              <Navbar
                onOpenSettings={openSettings}
                onOpenMenu={mobile && menuShown ? () => setMenuOpen(true) : undefined}
                topMenu={topMenu && menuShown && !mobile}
              />
            </Layout.Header>
          ) : null}
          <Layout hasSider={sider}>
            {sider ? (
              <Layout.Sider
                className="app-sider"
                width={menuWidth}
                collapsible
                collapsed={collapsed}
                onCollapse={(value) => updateSettings({ menuCollapse: value })}
                // 'light' follows the antd algorithm (dark grey in dark mode); 'dark' would be navy.
                theme="light"
                data-testid="app-sider"
              >
                <SideMenu />
              </Layout.Sider>
            ) : null}
            <Layout className="app-main">
              {tabBar ? <TabBar /> : null}
              <Layout.Content className="app-content">
                <Breadcrumbs />
                {/* With the tab bar, each tab's screen keeps its state while another is shown. */}
                {tabBar ? <KeepAliveOutlet /> : <Outlet />}
              </Layout.Content>
              {footer ? <Footer /> : null}
            </Layout>
          </Layout>
        </Layout>
        {mobile ? (
          <Drawer
            placement="left"
            open={menuOpen && menuShown}
            onClose={() => setMenuOpen(false)}
            size={Math.min(menuWidth, 300)}
            title={t('app.name')}
            className="app-menu-drawer"
            data-testid="menu-drawer"
            styles={{ body: { padding: 0 } }}
          >
            <SideMenu onNavigate={() => setMenuOpen(false)} />
          </Drawer>
        ) : null}
        {/*
         * Spec §2: the floating settings button shows only when the navbar is hidden; with it go
         * what the navbar would have offered besides: the message bell, the user menu (log out),
         * and on a phone the menu. They float in a gutter of their own (layout.css), over no content.
         */}
        {navbar ? null : (
          <div className="app-floating-actions" data-testid="floating-actions">
            {mobile && menuShown ? (
              <Button
                shape="circle"
                icon={<MenuOutlined />}
                aria-label={t('navbar.menu.open')}
                data-testid="menu-drawer-open-float"
                onClick={() => setMenuOpen(true)}
              />
            ) : null}
            <MessageBell />
            <UserMenu compact />
            <Tooltip title={t('navbar.settings')} placement="left">
              <Button
                type="primary"
                shape="circle"
                size="large"
                className="app-settings-float"
                icon={<SettingOutlined />}
                aria-label={t('navbar.settings')}
                data-testid="settings-float"
                onClick={openSettings}
              />
            </Tooltip>
          </div>
        )}
        {settingsLoaded ? (
          <Suspense fallback={null}>
            <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
          </Suspense>
        ) : null}
      </AntApp>
    </QueryClientProvider>
  );
  return zeroRuntime ? <ConfigProvider theme={ZERO_RUNTIME}>{layout}</ConfigProvider> : layout;
}
