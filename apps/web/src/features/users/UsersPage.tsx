import { useState } from 'react';
import { App, Button, Dropdown, Tag } from 'antd';
import { DeleteOutlined, DownOutlined, KeyOutlined, PlusOutlined, SafetyOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { RoleName } from '@clearplay/contract/constants';
import type { SubscriptionState, UserItem } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { useConfirmDelete } from '../../components/confirm.ts';
import { DictTag } from '../../components/DictTag.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Permission } from '../../components/Permission.tsx';
import { EditButton } from '../../components/RowActions.tsx';
import { SearchTable, type SearchTableColumn } from '../../components/SearchTable/index.ts';
import { StatusSwitch } from '../../components/StatusSwitch.tsx';
import { useCurrentUser } from '../../lib/current-user.ts';
import { can, useActor } from '../../lib/permissions.ts';
import {
  getUsers,
  useCancelSubscription,
  useDeleteUser,
  useResetSecondFactor,
  useRoleOptions,
  useSetUserStatus,
  userListQueryKey,
} from './api/users.ts';
import { ResetPasswordModal } from './components/ResetPasswordModal.tsx';
import { SubscriptionDrawer } from './components/SubscriptionDrawer.tsx';
import { SubscriptionModal } from './components/SubscriptionModal.tsx';
import { UserFormModal } from './components/UserFormModal.tsx';
import { SUBSCRIPTION_STATE_COLOR } from './subscription.ts';
import { formatDate } from '../../lib/date.ts';

const STATES: readonly SubscriptionState[] = ['none', 'active', 'expiring', 'expired'];

/** Filters a link may set through the URL (the workplace's renewals card: ?subscriptionState=expiring). */
const USER_URL_FILTERS = { subscriptionState: 'string' } as const;

/** User management (accounts, their status and subscription). super_admin only. */
export default function UsersPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const me = useCurrentUser();
  const actor = useActor();
  const roles = useRoleOptions();
  const setStatus = useSetUserStatus();
  const remove = useDeleteUser();
  const cancel = useCancelSubscription();
  const resetFactor = useResetSecondFactor();
  const confirmDelete = useConfirmDelete();

  const [form, setForm] = useState<{ open: boolean; user: UserItem | null }>({ open: false, user: null });
  const [resetting, setResetting] = useState<UserItem | null>(null);
  const [subscribing, setSubscribing] = useState<UserItem | null>(null);
  const [history, setHistory] = useState<UserItem | null>(null);

  const format = (value: string | null) => formatDate(value);

  // A super admin (not while viewing as another role) removes another user's authenticator app: their sessions end (decision 0091).
  const mayResetFactor = me?.role.name === RoleName.SUPER_ADMIN && me.viewAs === undefined;
  const resetSecondFactor = (user: UserItem) =>
    modal.confirm({
      title: t('user.resetSecondFactor.title'),
      content: t('user.resetSecondFactor.confirm', { name: user.username }),
      okButtonProps: { danger: true },
      okText: t('user.resetSecondFactor'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await resetFactor.mutateAsync(user.id);
        void message.success(t('user.resetSecondFactor.done', { name: user.username }));
      },
    });

  const unsubscribe = (user: UserItem) =>
    modal.confirm({
      title: t('user.unsubscribe.title'),
      content: t('user.unsubscribe.confirm', { name: user.username }),
      okButtonProps: { danger: true },
      okText: t('user.unsubscribe'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await cancel.mutateAsync(user.id);
          void message.success(t('feedback.unsubscribe.success'));
        } catch {
          void message.error(t('feedback.unsubscribe.failed'));
        }
      },
    });

  const columns: SearchTableColumn<UserItem>[] = [
    {
      key: 'username',
      title: t('user.field.username'),
      fixed: 'left',
      width: 140,
      search: { type: 'input' },
      render: (_, u) => (
        <span>
          {u.username}
          {u.id === me?.id ? (
            <Tag color="blue" style={{ marginInlineStart: 6 }}>
              {t('user.me')}
            </Tag>
          ) : null}
        </span>
      ),
    },
    { key: 'nickname', title: t('user.field.nickname'), width: 130, ellipsis: true, search: { type: 'input' } },
    {
      key: 'roleName',
      title: t('user.field.role'),
      width: 120,
      search: {
        type: 'select',
        name: 'roleId',
        options: (roles.data ?? []).map((r) => ({ value: r.id, label: r.name })),
      },
      render: (_, u) => <Tag color={u.roleIsAdmin ? 'geekblue' : 'default'}>{u.roleName}</Tag>,
    },
    // One word: whole, on one line; the column grows to the longest on the page (decision 0090).
    {
      key: 'wechat',
      title: t('user.field.wechat'),
      width: 130,
      search: { type: 'input' },
      render: (_, u) => <span className="one-word">{u.wechat}</span>,
    },
    { key: 'phone', title: t('user.field.phone'), width: 130, search: { type: 'input' } },
    {
      key: 'status',
      title: t('user.field.status'),
      width: 100,
      search: { type: 'dict', dictType: 'common_status', numeric: true },
      render: (_, u) => (
        <StatusSwitch
          status={u.status}
          disabled={u.id === me?.id || !can(actor, 'user:status')}
          disabledReason={u.id === me?.id ? t('user.self.status') : undefined}
          onChange={(status) => setStatus.mutateAsync({ id: u.id, status })}
          confirm={(next) =>
            next === 0
              ? {
                  title: t('user.status.confirmDisable', { name: u.username }),
                  content: t('user.status.disableHint'),
                  okText: t('user.status.disable'),
                }
              : {
                  title: t('user.status.confirmEnable', { name: u.username }),
                  content: t('user.status.enableHint'),
                  okText: t('user.status.enable'),
                }
          }
          data-testid={`user-status-${u.username}`}
        />
      ),
    },
    {
      key: 'defaultPrice',
      title: t('user.field.defaultPrice'),
      width: 110,
      align: 'right',
      render: (_, u) => <Money fen={u.defaultPrice} />,
    },
    {
      key: 'defaultPriceCheat',
      title: t('user.field.defaultPriceCheat'),
      width: 110,
      align: 'right',
      render: (_, u) => <Money fen={u.defaultPriceCheat} />,
    },
    {
      key: 'defaultPriceSuspect',
      title: t('user.field.defaultPriceSuspect'),
      width: 110,
      align: 'right',
      render: (_, u) => <Money fen={u.defaultPriceSuspect} />,
    },
    {
      key: 'defaultPriceNotPass',
      title: t('user.field.defaultPriceNotPass'),
      width: 120,
      align: 'right',
      render: (_, u) => <Money fen={u.defaultPriceNotPass} />,
    },
    {
      key: 'serviceEndDate',
      title: t('user.field.serviceEndDate'),
      width: 230,
      searchLabel: t('user.field.subscriptionState'),
      search: {
        type: 'select',
        name: 'subscriptionState',
        options: STATES.map((s) => ({ value: s, label: t(`user.subscriptionState.${s}`) })),
      },
      render: (_, u) =>
        u.roleIsAdmin ? (
          <span style={{ opacity: 0.45 }}>{t('user.subscription.notApplicable')}</span>
        ) : (
          <span data-testid={`user-end-${u.username}`} data-end={u.serviceEndDate ?? ''}>
            <Tag color={SUBSCRIPTION_STATE_COLOR[u.subscriptionState]}>{t(`user.subscriptionState.${u.subscriptionState}`)}</Tag>
            {u.serviceEndDate ? formatDate(u.serviceEndDate, 'minute') : null}
          </span>
        ),
    },
    {
      key: 'ifPublic',
      title: t('user.field.ifPublic'),
      width: 100,
      defaultHidden: true,
      render: (_, u) => <DictTag type="public_private" value={u.ifPublic} />,
    },
    {
      key: 'createdTime',
      title: t('common.createdTime'),
      width: 170,
      search: { type: 'dateRange', names: ['createdStart', 'createdEnd'] },
      render: (_, u) => format(u.createdTime),
    },
    { key: 'loginTime', title: t('user.field.loginTime'), width: 170, render: (_, u) => format(u.loginTime) },
    {
      key: 'actions',
      title: t('common.actions'),
      fixed: 'right',
      width: 300,
      render: (_, u) => {
        const self = u.id === me?.id;
        const maySubscribe = !u.roleIsAdmin && can(actor, 'user:subscription');
        const more = [
          ...(mayResetFactor && u.secondFactor && !self
            ? [{ key: 'resetSecondFactor', label: t('user.resetSecondFactor'), icon: <SafetyOutlined /> }]
            : []),
          ...(!maySubscribe
            ? []
            : [
                {
                  key: 'unsubscribe',
                  label: t('user.unsubscribe'),
                  disabled: u.serviceEndDate === null || u.subscriptionState === 'expired',
                },
                { key: 'history', label: t('user.subscription.historyShort') },
                ...(can(actor, 'user:delete') ? [{ type: 'divider' as const }] : []),
              ]),
          ...(can(actor, 'user:delete')
            ? [{ key: 'delete', label: t('common.delete'), danger: true, disabled: self, icon: <DeleteOutlined /> }]
            : []),
        ];
        return (
          <span className="table-actions">
            <EditButton onClick={() => setForm({ open: true, user: u })} testId={`user-edit-${u.username}`} permission="user:update" />
            {can(actor, 'user:password:reset') ? (
              <Button
                type="link"
                size="small"
                icon={<KeyOutlined />}
                onClick={() => setResetting(u)}
                data-testid={`user-reset-${u.username}`}
              >
                {t('user.resetPassword')}
              </Button>
            ) : null}
            {!maySubscribe ? null : (
              <Button
                type="link"
                size="small"
                icon={<ShoppingCartOutlined />}
                onClick={() => setSubscribing(u)}
                data-testid={`user-subscribe-${u.username}`}
              >
                {u.subscriptionState === 'active' || u.subscriptionState === 'expiring'
                  ? t('user.subscription.renew')
                  : t('user.subscription.subscribe')}
              </Button>
            )}
            {more.length === 0 ? null : (
              <Dropdown
                trigger={['click']}
                menu={{
                  items: more,
                  onClick: ({ key }) => {
                    if (key === 'resetSecondFactor') resetSecondFactor(u);
                    else if (key === 'unsubscribe') unsubscribe(u);
                    else if (key === 'history') setHistory(u);
                    else if (key === 'delete')
                      confirmDelete(async () => {
                        await remove.mutateAsync(u.id);
                        void message.success(t('feedback.delete.success'));
                      });
                  },
                }}
              >
                <Button type="link" size="small" data-testid={`user-more-${u.username}`}>
                  {t('common.more')} <DownOutlined />
                </Button>
              </Dropdown>
            )}
          </span>
        );
      },
    },
  ];

  return (
    <>
      <PageHeader description={t('page.user.description')} />
      <SearchTable<UserItem>
        urlFilters={USER_URL_FILTERS}
        tableId="system-user"
        rowKey="id"
        columns={columns}
        queryKey={userListQueryKey}
        fetcher={(params, signal) => getUsers(params, signal)}
        title={t('user.list')}
        toolbar={() => (
          <Permission permissions={['user:create']}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ open: true, user: null })} data-testid="user-create">
              {t('user.create')}
            </Button>
          </Permission>
        )}
        data-testid="user-table"
      />
      <UserFormModal open={form.open} user={form.user} onClose={() => setForm({ open: false, user: null })} />
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
      <SubscriptionModal user={subscribing} onClose={() => setSubscribing(null)} />
      <SubscriptionDrawer user={history} onClose={() => setHistory(null)} />
    </>
  );
}
