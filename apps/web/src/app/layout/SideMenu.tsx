import { useMemo, type ReactNode } from 'react';
import { Menu, type MenuProps } from 'antd';
import { AreaChartOutlined, DashboardOutlined, FileSearchOutlined, SettingOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { findRouteByPath, isScreen, menuRoutes, type AppRoute, type MenuIcon } from '../../config/paths.ts';
import { useRoleName } from '../../lib/current-user.ts';

const ICONS: Record<MenuIcon, ReactNode> = {
  dashboard: <DashboardOutlined />,
  order: <FileSearchOutlined />,
  system: <SettingOutlined />,
  visualization: <AreaChartOutlined />,
};

type MenuItem = Required<MenuProps>['items'][number];

/** The side menu, built from the route table and filtered by the user's role. */
export function SideMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const role = useRoleName();

  const tree = useMemo(() => menuRoutes(role), [role]);
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
      label: t(route.meta.locale),
      children: route.children?.map(toItem),
    });
    return tree.map(toItem);
  }, [tree, t]);

  const current = findRouteByPath(pathname);
  const selected = current ? [current.route.name] : [];

  return (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={selected}
      // Few groups: all open at first, so the current screen is always visible.
      defaultOpenKeys={tree.map((route) => route.name)}
      onClick={({ key }) => {
        const path = paths.get(key);
        if (path) void navigate(path);
      }}
      className="app-menu"
    />
  );
}
