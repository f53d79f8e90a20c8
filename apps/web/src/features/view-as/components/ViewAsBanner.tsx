import { Alert, Button } from 'antd';
import type { ViewAsState } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';

export interface ViewAsBannerProps {
  view: ViewAsState;
  onSwitchBack: () => void;
  pending: boolean;
}

/** The banner over every screen while a super admin views as another role, with "switch back". */
export function ViewAsBanner({ view, onSwitchBack, pending }: ViewAsBannerProps) {
  const { t } = useTranslation();
  const role = (['admin', 'inspector', 'shop'] as const).find((r) => r === view.role);
  const account =
    view.username === null ? '' : view.nickname && view.nickname !== view.username ? `${view.nickname} (${view.username})` : view.username;
  return (
    <Alert
      banner
      type="warning"
      data-testid="view-as-banner"
      title={t(account === '' ? 'viewAs.banner.role' : 'viewAs.banner.account', {
        role: role === undefined ? view.role : t(`viewAs.role.${role}`),
        account,
        by: view.by.username,
      })}
      action={
        <Button size="small" type="primary" loading={pending} onClick={onSwitchBack} data-testid="view-as-end">
          {t('viewAs.switchBack')}
        </Button>
      }
    />
  );
}
