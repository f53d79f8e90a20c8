import { Drawer, Table, Tag } from 'antd';
import type { SubscriptionRecord, UserItem } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { useSubscriptions } from '../api/users.ts';
import { formatDate } from '../../../lib/date.ts';

const ACTION_COLOR: Record<SubscriptionRecord['action'], string> = { subscribe: 'success', renew: 'processing', cancel: 'default' };

/** Every subscription change of one user, newest first. */
export function SubscriptionDrawer({ user, onClose }: { user: UserItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const records = useSubscriptions(user?.id ?? null);
  const format = (value: string) => formatDate(value);
  return (
    <Drawer
      open={user !== null}
      onClose={onClose}
      size={860}
      title={t('user.subscription.history', { name: user?.username ?? '' })}
      destroyOnHidden
      data-testid="subscription-history"
    >
      <Table<SubscriptionRecord>
        rowKey="id"
        size="small"
        loading={records.isFetching}
        dataSource={records.data ?? []}
        pagination={false}
        columns={[
          {
            key: 'action',
            title: t('user.subscription.action'),
            dataIndex: 'action',
            render: (action: SubscriptionRecord['action']) => (
              <Tag color={ACTION_COLOR[action]}>{t(`user.subscription.action.${action}`)}</Tag>
            ),
          },
          {
            key: 'type',
            title: t('user.subscription.type'),
            render: (_, r) => (r.type ? t(`user.subscription.type.${r.type}`, { days: r.durationDays ?? '' }) : '-'),
          },
          { key: 'days', title: t('user.subscription.days'), dataIndex: 'durationDays', render: (d: number | null) => d ?? '-' },
          { key: 'start', title: t('user.subscription.start'), dataIndex: 'startDate', render: format },
          { key: 'end', title: t('user.subscription.end'), dataIndex: 'endDate', render: format },
          { key: 'operator', title: t('user.subscription.operator'), dataIndex: 'operator' },
          { key: 'remark', title: t('common.remark'), dataIndex: 'remark', render: (r: string) => r || '-' },
          { key: 'createdTime', title: t('common.createdTime'), dataIndex: 'createdTime', render: format },
        ]}
      />
    </Drawer>
  );
}
