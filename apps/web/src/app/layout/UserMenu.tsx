import { useState } from 'react';
import { Button, Dropdown } from 'antd';
import { IdcardOutlined, LogoutOutlined, SettingOutlined, SwapOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { RoleName } from '@clearplay/contract/constants';
import { UserAvatar } from '../../components/UserAvatar.tsx';
import { ViewAsModal } from '../../features/view-as/index.ts';
import { useCurrentUser } from '../../lib/current-user.ts';
import { useLogout } from '../session.ts';
import { enterView, useEndView } from '../view-as.tsx';

/**
 * The signed-in user's menu: switch roles (decision 0060), user info, user settings, log out.
 * In the navbar with the nickname; `compact` (the floating actions, navbar hidden) the avatar alone.
 */
export function UserMenu({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const logout = useLogout(() => navigate('/login', { replace: true }));
  // Switch roles (decision 0060): offered to a super admin who is not viewing; "switch back" while viewing.
  const [viewAsOpen, setViewAsOpen] = useState(false);
  const endView = useEndView();
  const canSwitchRoles = user?.role.name === RoleName.SUPER_ADMIN && user.viewAs === undefined;
  const viewing = user?.viewAs !== undefined;
  const name = user?.nickname || user?.username;

  return (
    <>
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
        {compact ? (
          <Button shape="circle" data-testid="user-menu" aria-label={name} className="floating-user">
            <UserAvatar size="small" avatar={user?.avatar} name={name} data-testid="navbar-avatar" />
          </Button>
        ) : (
          <Button type="text" data-testid="user-menu" className="navbar-user">
            <UserAvatar size="small" avatar={user?.avatar} name={name} data-testid="navbar-avatar" />
            <span className="navbar-nickname">{name}</span>
          </Button>
        )}
      </Dropdown>
      {canSwitchRoles ? <ViewAsModal open={viewAsOpen} onClose={() => setViewAsOpen(false)} onSwitched={enterView} /> : null}
    </>
  );
}
