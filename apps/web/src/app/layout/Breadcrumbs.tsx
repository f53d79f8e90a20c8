import { Breadcrumb } from 'antd';
import { HomeOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { findRouteByPath } from '../../config/paths.ts';

/** Breadcrumbs from the route table: the menu group(s) and the screen. */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const entry = findRouteByPath(pathname);
  if (!entry || entry.route.meta.hideInMenu) return null;
  const items = [
    { key: 'home', title: <HomeOutlined aria-label={t('route.home')} /> },
    ...[...entry.ancestors, entry.route].map((route) => ({ key: route.name, title: t(route.meta.locale) })),
  ];
  return <Breadcrumb className="app-breadcrumbs" items={items} />;
}
