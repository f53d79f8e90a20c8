import { App, Button, Card, Col, Descriptions, List, Row, Space, Tag, Typography } from 'antd';
import { LogoutOutlined, SettingOutlined } from '@ant-design/icons';
import type { LedgerEntry, LoginHistoryItem } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ImageUploader } from '../../components/ImageUploader/index.ts';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SearchTable, type SearchTableColumn } from '../../components/SearchTable/index.ts';
import { UserAvatar } from '../../components/UserAvatar.tsx';
import { formatDate } from '../../lib/date.ts';
import { roleDescription } from '../../lib/role-description.ts';
import {
  accountKeys,
  avatarTokenGetter,
  getLogins,
  getOwnLedger,
  useEndOtherSessions,
  useProfile,
  useSessions,
  useSetAvatar,
} from './api/account.ts';

const STATE_COLOR = { none: 'default', active: 'success', expiring: 'warning', expired: 'error' } as const;

/**
 * The user centre (`/user/info`): my profile; for a shop, its subscription, balance and ledger
 * (read-only); my live sessions with "sign out other sessions"; my sign-in history.
 */
export default function UserInfoPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { data: profile } = useProfile();
  const { data: sessions } = useSessions();
  const endOthers = useEndOtherSessions();
  const setAvatar = useSetAvatar();

  /** The uploader's value changed: a new picture uploaded, or the old one removed. Saved at once. */
  const saveAvatar = (value: string) =>
    setAvatar.mutate(
      { avatar: value },
      { onSuccess: (saved) => void message.success(t(saved.avatar === '' ? 'account.avatar.removed' : 'account.avatar.saved')) },
    );

  const loginColumns: SearchTableColumn<LoginHistoryItem>[] = [
    { key: 'createdTime', title: t('account.login.time'), width: 180, render: (_, r) => formatDate(r.createdTime) },
    {
      key: 'success',
      title: t('account.login.result'),
      width: 110,
      render: (_, r) =>
        r.success ? <Tag color="success">{t('account.login.ok')}</Tag> : <Tag color="error">{t('account.login.failed')}</Tag>,
    },
    { key: 'ip', title: 'IP', width: 140 },
    { key: 'userAgent', title: t('account.session.device'), ellipsis: true },
  ];
  const ledgerColumns: SearchTableColumn<LedgerEntry>[] = [
    { key: 'createdTime', title: t('ledger.field.time'), width: 180, render: (_, e) => formatDate(e.createdTime) },
    { key: 'kind', title: t('ledger.field.kind'), width: 110, render: (_, e) => t(`ledger.kind.${e.kind}`) },
    { key: 'amount', title: t('ledger.field.amount'), width: 130, align: 'right', render: (_, e) => <Money fen={e.amount} signed /> },
    {
      key: 'balanceAfter',
      title: t('ledger.field.balanceAfter'),
      width: 130,
      align: 'right',
      render: (_, e) => <Money fen={e.balanceAfter} />,
    },
    { key: 'remark', title: t('ledger.field.remark'), ellipsis: true },
  ];

  const endOtherSessions = () =>
    endOthers.mutate(undefined, { onSuccess: ({ ended }) => void message.success(t('account.session.ended', { count: ended })) });

  return (
    <>
      <PageHeader
        description={t('account.info.description')}
        extra={
          <Button icon={<SettingOutlined />} onClick={() => void navigate('/user/setting')} data-testid="account-to-settings">
            {t('route.userSetting')}
          </Button>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={profile?.shop ? 12 : 24}>
          <Card title={t('account.profile')} data-testid="account-profile">
            <Space align="start" size={24}>
              <Space direction="vertical" align="center" size={8} data-testid="account-avatar">
                <UserAvatar size={64} avatar={profile?.avatar} name={profile?.nickname || profile?.username} />
                {profile ? (
                  <ImageUploader
                    key={profile.avatar}
                    value={profile.avatar}
                    onChange={saveAvatar}
                    getToken={avatarTokenGetter}
                    multiple={false}
                    maxCount={1}
                    accept="avatar"
                    disabled={setAvatar.isPending}
                  />
                ) : null}
                <Typography.Text type="secondary" style={{ maxWidth: 160, fontSize: 12, textAlign: 'center', display: 'block' }}>
                  {t('account.avatar.hint')}
                </Typography.Text>
              </Space>
              <Descriptions column={1} size="small">
                <Descriptions.Item label={t('account.field.username')}>{profile?.username}</Descriptions.Item>
                <Descriptions.Item label={t('account.field.nickname')}>{profile?.nickname}</Descriptions.Item>
                <Descriptions.Item label={t('account.field.role')}>
                  {(profile
                    ? roleDescription({ description: profile.roleDescription, descriptionEn: profile.roleDescriptionEn }, i18n.language)
                    : '') || profile?.roleName}
                </Descriptions.Item>
                <Descriptions.Item label={t('account.field.wechat')}>{profile?.wechat || '-'}</Descriptions.Item>
                <Descriptions.Item label={t('account.field.phone')}>{profile?.phone || '-'}</Descriptions.Item>
                <Descriptions.Item label={t('account.field.loginTime')}>{formatDate(profile?.loginTime ?? null)}</Descriptions.Item>
              </Descriptions>
            </Space>
          </Card>
        </Col>
        {profile?.shop ? (
          <Col xs={24} lg={12}>
            <Card title={t('account.shop')} data-testid="account-shop">
              <Descriptions column={1} size="small">
                <Descriptions.Item label={t('account.field.subscription')}>
                  <Tag color={STATE_COLOR[profile.shop.subscriptionState]}>
                    {t(`user.subscriptionState.${profile.shop.subscriptionState}`)}
                  </Tag>
                </Descriptions.Item>
                <Descriptions.Item label={t('account.field.serviceEnd')}>
                  {formatDate(profile.shop.serviceEndDate, 'day')}
                </Descriptions.Item>
                <Descriptions.Item label={t('account.field.balance')}>
                  <span data-testid="account-balance">
                    <Money fen={profile.shop.balance} strong />
                  </span>
                </Descriptions.Item>
              </Descriptions>
            </Card>
          </Col>
        ) : null}
        <Col span={24}>
          <Card
            title={t('account.sessions')}
            extra={
              <Button
                icon={<LogoutOutlined />}
                disabled={(sessions?.length ?? 0) < 2}
                loading={endOthers.isPending}
                onClick={endOtherSessions}
                data-testid="account-end-others"
              >
                {t('account.session.endOthers')}
              </Button>
            }
          >
            <List
              size="small"
              dataSource={sessions ?? []}
              data-testid="account-sessions"
              renderItem={(s) => (
                <List.Item>
                  <List.Item.Meta
                    title={
                      <Space>
                        {s.ip}
                        {s.current ? <Tag color="processing">{t('account.session.current')}</Tag> : null}
                      </Space>
                    }
                    description={`${s.userAgent || '-'} · ${t('account.session.since', { time: formatDate(s.createdTime, 'minute') })} · ${t(
                      'account.session.lastSeen',
                      { time: formatDate(s.lastSeenTime, 'minute') },
                    )}`}
                  />
                </List.Item>
              )}
            />
          </Card>
        </Col>
        {profile?.shop ? (
          <Col span={24}>
            <SearchTable<LedgerEntry>
              tableId="account-ledger"
              rowKey="id"
              title={t('account.ledger')}
              columns={ledgerColumns}
              queryKey={accountKeys.ledger}
              fetcher={(params, signal) => getOwnLedger({ page: params.page, pageSize: params.pageSize }, signal)}
              defaultPageSize={10}
              data-testid="account-ledger"
            />
          </Col>
        ) : null}
        <Col span={24}>
          <SearchTable<LoginHistoryItem>
            tableId="account-logins"
            rowKey="id"
            title={t('account.logins')}
            columns={loginColumns}
            queryKey={accountKeys.logins}
            fetcher={(params, signal) => getLogins({ page: params.page, pageSize: params.pageSize }, signal)}
            defaultPageSize={10}
            data-testid="account-logins"
          />
        </Col>
      </Row>
    </>
  );
}
