import { App as AntApp, Layout } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import '../../lib/dayjs.ts';
import { queryClient } from '../../lib/query-client.ts';
import { updateSettings, useAppState } from '../../lib/settings.ts';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { Footer } from './Footer.tsx';
import { Navbar } from './Navbar.tsx';
import { SideMenu } from './SideMenu.tsx';
import { TabBar } from './TabBar.tsx';
import './layout.css';

/**
 * The default layout of every logged-in screen: navbar, side menu, tab bar, breadcrumbs,
 * footer. It also provides TanStack Query to the screens inside it (public screens that need
 * server data wrap themselves in the same QueryClientProvider).
 */
export default function DefaultLayout() {
  const navbar = useAppState((s) => s.navbar);
  const menu = useAppState((s) => s.menu && !s.hideMenu && !s.topMenu);
  const menuWidth = useAppState((s) => s.menuWidth);
  const collapsed = useAppState((s) => s.menuCollapse);
  const tabBar = useAppState((s) => s.tabBar);
  const footer = useAppState((s) => s.footer);

  return (
    <QueryClientProvider client={queryClient}>
      {/* antd's App: message / modal / notification with the theme and locale (App.useApp()). */}
      <AntApp component={false}>
        <Layout className="app-layout" data-testid="app-layout">
          {navbar ? (
            <Layout.Header className="app-navbar">
              <Navbar />
            </Layout.Header>
          ) : null}
          <Layout hasSider={menu}>
            {menu ? (
              <Layout.Sider
                className="app-sider"
                width={menuWidth}
                collapsible
                collapsed={collapsed}
                onCollapse={(value) => updateSettings({ menuCollapse: value })}
                // 'light' follows the antd algorithm (dark grey in dark mode); 'dark' would be navy.
                theme="light"
                breakpoint="lg"
              >
                <SideMenu />
              </Layout.Sider>
            ) : null}
            <Layout className="app-main">
              {tabBar ? <TabBar /> : null}
              <Layout.Content className="app-content">
                <Breadcrumbs />
                <Outlet />
              </Layout.Content>
              {footer ? <Footer /> : null}
            </Layout>
          </Layout>
        </Layout>
      </AntApp>
    </QueryClientProvider>
  );
}
