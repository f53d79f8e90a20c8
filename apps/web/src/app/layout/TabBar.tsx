import { useEffect } from 'react';
import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import {
  CloseOutlined,
  DownOutlined,
  ReloadOutlined,
  SwapOutlined,
  VerticalRightOutlined,
  VerticalLeftOutlined,
  VerticalAlignMiddleOutlined,
} from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { findRouteByPath } from '../../config/paths.ts';
import { useRoleName } from '../../lib/current-user.ts';
import { listenRouteChange } from '../../lib/route-listener.ts';
import { useStore } from '../../lib/store.ts';
import { addTab, closeTabs, initTabs, tabStore, type TabAction, type TabItem } from './tab-store.ts';

/**
 * The tab bar: starts with the Workplace (or the role's first screen), gets a tab
 * per visited screen (never the redirect route), and offers reload (through
 * /redirect/:path), close, close left / right / others / all, from a right click on a tab or
 * from the menu at the end of the bar.
 */
export function TabBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const role = useRoleName();
  const tabs = useStore(tabStore);

  useEffect(() => {
    initTabs(role);
    return listenRouteChange(addTab);
  }, [role]);

  const activeName = findRouteByPath(pathname)?.route.name ?? null;
  const activeIndex = tabs.findIndex((tab) => tab.name === activeName);

  const run = (action: TabAction, index: number) => {
    const tab = tabs[index];
    if (!tab) return;
    if (action === 'reload') {
      const url = new URL(tab.fullPath, window.location.origin);
      void navigate(`/redirect/${encodeURIComponent(url.pathname)}${url.search}`);
      return;
    }
    const destination = closeTabs(action, index, activeName);
    if (destination) void navigate(destination);
  };

  const menuFor = (index: number): MenuProps => {
    const last = tabs.length - 1;
    const items: MenuProps['items'] = [
      { key: 'reload', icon: <ReloadOutlined />, label: t('tabBar.reload') },
      { key: 'close', icon: <CloseOutlined />, label: t('tabBar.close'), disabled: index === 0 },
      { type: 'divider' },
      { key: 'closeLeft', icon: <VerticalRightOutlined />, label: t('tabBar.closeLeft'), disabled: index <= 1 },
      { key: 'closeRight', icon: <VerticalLeftOutlined />, label: t('tabBar.closeRight'), disabled: index >= last },
      { type: 'divider' },
      { key: 'closeOthers', icon: <SwapOutlined />, label: t('tabBar.closeOthers'), disabled: last === 0 || (last === 1 && index === 1) },
      { key: 'closeAll', icon: <VerticalAlignMiddleOutlined />, label: t('tabBar.closeAll'), disabled: last === 0 },
    ];
    return {
      items,
      onClick: ({ key, domEvent }) => {
        domEvent.stopPropagation(); // do not also activate the tab under the menu
        run(key as TabAction, index);
      },
    };
  };

  const items = tabs.map((tab: TabItem, index) => ({
    key: tab.name,
    closable: index !== 0,
    label: (
      <Dropdown trigger={['contextMenu']} menu={menuFor(index)}>
        <span data-testid={`tab-${tab.name}`}>{t(tab.title)}</span>
      </Dropdown>
    ),
  }));

  return (
    <div className="app-tab-bar" data-testid="tab-bar">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={activeIndex === -1 ? undefined : (tabs[activeIndex]?.name ?? undefined)}
        items={items}
        onChange={(key) => {
          const tab = tabs.find((item) => item.name === key);
          if (tab) void navigate(tab.fullPath);
        }}
        onEdit={(key, action) => {
          if (action !== 'remove') return;
          const index = tabs.findIndex((item) => item.name === key);
          if (index > 0) run('close', index);
        }}
        tabBarExtraContent={
          <Dropdown trigger={['click']} menu={menuFor(activeIndex === -1 ? 0 : activeIndex)}>
            <Button type="text" size="small" icon={<DownOutlined />} aria-label={t('tabBar.actions')} data-testid="tab-actions" />
          </Dropdown>
        }
      />
    </div>
  );
}
