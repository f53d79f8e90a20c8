import { useMemo, type ReactNode } from 'react';
import { Menu, type MenuProps } from 'antd';
import {
  AreaChartOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  FormOutlined,
  SettingOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { findRouteByPath, isScreen, menuRoutes, type AppRoute, type MenuIcon } from '../../config/paths.ts';
import { useRoleName } from '../../lib/current-user.ts';
import { useServerMenuNames } from '../../lib/settings.ts';

const ICONS: Record<MenuIcon, ReactNode> = {
  dashboard: <DashboardOutlined />,
  order: <FileSearchOutlined />,
  system: <SettingOutlined />,
  visualization: <AreaChartOutlined />,
  exception: <WarningOutlined />,
  form: <FormOutlined />,
};

type MenuItem = Required<MenuProps>['items'][number];

/**
 * The menu, built from the route table and filtered by the user's role, and by the server menu
 * when "menu from server" is on. Inline in the side menu and the mobile drawer,
 * horizontal in the navbar with "top menu" on.
 */
export function SideMenu({ mode = 'inline', onNavigate }: { mode?: 'inline' | 'horizontal'; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const role = useRoleName();
  const serverNames = useServerMenuNames();

  const tree = useMemo(() => menuRoutes(role, serverNames ? (route) => serverNames.has(route.name) : undefined), [role, serverNames]);
  const paths = useMemo(() => {
    const map = new Map<string, string>();
    const walk = (list: AppRoute[]) =>
      list.forEach((route) => {
        if (isScreen(route)) map.set(route.name, route.path);
        if (route.children) walk(route.children);
      });
    walk(tree);
    return map;
  }, [tree]);

  const items = useMemo(() => {
    const toItem = (route: AppRoute): MenuItem => ({
      key: route.name,
      icon: route.meta.icon ? ICONS[route.meta.icon] : undefined,
      label: <span data-testid={`menu-${route.name}`}>{t(route.meta.locale)}</span>,
      children: route.children?.map(toItem),
    });
    return tree.map(toItem);
  }, [tree, t]);

  const current = findRouteByPath(pathname);
  const selected = current ? [current.route.name] : [];

  return (
    <Menu
      mode={mode}
      items={items}
      selectedKeys={selected}
      // Few groups: all open at first, so the current screen is always visible.
      defaultOpenKeys={mode === 'inline' ? tree.map((route) => route.name) : undefined}
      onClick={({ key }) => {
        const path = paths.get(key);
        if (path) void navigate(path);
        onNavigate?.();
      }}
      className={mode === 'inline' ? 'app-menu' : 'app-menu app-top-menu'}
      data-testid={mode === 'inline' ? 'side-menu' : 'top-menu'}
    />
  );
}
