import { lazy, Suspense, useDeferredValue, useState, type ReactNode } from 'react';
import {
  Button,
  Card,
  Col,
  Empty,
  Flex,
  List,
  Result,
  Row,
  Skeleton,
  Statistic,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import {
  AlertOutlined,
  ArrowDownOutlined,
  ArrowUpOutlined,
  BookOutlined,
  FileSearchOutlined,
  NotificationOutlined,
  ProfileOutlined,
  SafetyOutlined,
  TeamOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { OrderItem, QuickOperation, WorkplaceData } from '@clearplay/contract';
import { formatMoney, ORDER_DICTS } from '@clearplay/contract/constants';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DictTag, DictText } from '../../components/DictTag.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { tableScrollWidth } from '../../components/SearchTable/fit-columns.ts';
import { findRouteByPath, RouteNames } from '../../config/paths.ts';
import { useCurrentUser } from '../../lib/current-user.ts';
import { formatDate, formatPercent } from '../../lib/date.ts';
import { can, useActor } from '../../lib/permissions.ts';
import { AnnouncementList, AnnouncementsDrawer, PublishAnnouncementModal } from '../announcements/index.ts';
import { useWorkplace } from './api/workplace.ts';
import './workplace.css';

/** ECharts comes in this chunk only (never on the login or landing page). */
const WorkplaceCharts = lazy(() => import('./components/WorkplaceCharts.tsx'));

/** Where the statistic cards lead: the lists, pre-filtered through their URL search params. */
export const PENDING_LINK = '/order/inspect?result=3';
export const RENEWALS_LINK = '/system/user?subscriptionState=expiring';

function Change({ value }: { value: number | null }) {
  const { t, i18n } = useTranslation();
  if (value === null) return <Typography.Text type="secondary">{t('workplace.change.none')}</Typography.Text>;
  const up = value >= 0;
  return (
    <Typography.Text type={up ? 'success' : 'danger'} data-testid="workplace-change">
      {up ? <ArrowUpOutlined /> : <ArrowDownOutlined />} {formatPercent(Math.abs(value), i18n.language)} {t('workplace.change.vsLastMonth')}
    </Typography.Text>
  );
}

function StatCard(props: {
  testId: string;
  title: string;
  icon: ReactNode;
  value: ReactNode;
  footer?: ReactNode;
  to?: string;
  hint?: string;
}) {
  const navigate = useNavigate();
  const clickable = props.to !== undefined;
  return (
    <Card
      size="small"
      hoverable={clickable}
      className={clickable ? 'workplace-stat workplace-stat--link' : 'workplace-stat'}
      data-testid={props.testId}
      onClick={clickable ? () => void navigate(props.to!) : undefined}
      role={clickable ? 'link' : undefined}
      tabIndex={clickable ? 0 : undefined}
      onKeyDown={clickable ? (e) => e.key === 'Enter' && void navigate(props.to!) : undefined}
      aria-label={props.hint}
    >
      <Statistic
        title={props.title}
        prefix={props.icon}
        valueRender={() => <span data-testid={`${props.testId}-value`}>{props.value}</span>}
      />
      <div className="workplace-stat__footer">{props.footer}</div>
    </Card>
  );
}

const QUICK_ICONS: Record<QuickOperation['key'], ReactNode> = {
  order: <FileSearchOutlined />,
  user: <TeamOutlined />,
  role: <SafetyOutlined />,
  dict: <BookOutlined />,
  log: <ProfileOutlined />,
  announcement: <NotificationOutlined />,
};

function OrdersTable({ rows, testId }: { rows: readonly OrderItem[]; testId: string }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<OrderItem> = [
    { key: 'code', dataIndex: 'code', title: t('order.field.code'), width: 110 },
    // Takes the room left, never less than a short name: in a half-width card (the pending
    // orders beside the renewals) the table scrolls sideways rather than squeeze it away.
    { key: 'objWechatName', dataIndex: 'objWechatName', title: t('order.field.objWechatName'), ellipsis: true, minWidth: 100 },
    {
      key: 'gameName',
      dataIndex: 'gameName',
      title: t('order.field.gameName'),
      ellipsis: true,
      // "NARAKA: BLADEPOINT": a game's first word whole (the English names are the longest).
      width: 140,
      render: (value: string) => <DictText type={ORDER_DICTS.game} value={value} />,
    },
    {
      key: 'result',
      title: t('order.field.result'),
      width: 90,
      render: (_, o) => <DictTag type={ORDER_DICTS.result} value={o.result} />,
    },
    { key: 'amount', title: t('order.field.amount'), width: 100, align: 'right', render: (_, o) => <Money fen={o.amount} /> },
    { key: 'createdTime', title: t('order.field.createdTime'), width: 150, render: (_, o) => formatDate(o.createdTime, 'minute') },
  ];
  return (
    <Table<OrderItem>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={[...rows]}
      scroll={{ x: tableScrollWidth(columns) }}
      data-testid={testId}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workplace.noOrders')} /> }}
      columns={columns}
    />
  );
}

function Figures({ data }: { data: WorkplaceData }) {
  const { t, i18n } = useTranslation();
  const money = (fen: number) => formatMoney(fen, i18n.language);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          testId="stat-balance"
          title={t('workplace.balance')}
          icon={<WalletOutlined />}
          value={money(data.balance)}
          footer={<Typography.Text type="secondary">{t('workplace.balance.hint')}</Typography.Text>}
        />
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          testId="stat-pending"
          title={t('workplace.pending')}
          icon={<AlertOutlined />}
          value={data.pending.count}
          to={PENDING_LINK}
          hint={t('workplace.pending.hint')}
          footer={<Typography.Link>{t('workplace.pending.open')}</Typography.Link>}
        />
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          testId="stat-renewals"
          title={t('workplace.renewals')}
          icon={<TeamOutlined />}
          value={data.renewals.count}
          to={RENEWALS_LINK}
          hint={t('workplace.renewals.hint')}
          footer={<Typography.Link>{t('workplace.renewals.open')}</Typography.Link>}
        />
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          testId="stat-month-count"
          title={t('workplace.month.count')}
          icon={<FileSearchOutlined />}
          value={data.month.current.count}
          footer={<Change value={data.month.countChange} />}
        />
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          testId="stat-month-amount"
          title={t('workplace.month.amount')}
          icon={<WalletOutlined />}
          value={money(data.month.current.amount)}
          footer={<Change value={data.month.amountChange} />}
        />
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <StatCard testId="stat-total-count" title={t('workplace.total.count')} icon={<ProfileOutlined />} value={data.total.count} />
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          testId="stat-total-amount"
          title={t('workplace.total.amount')}
          icon={<WalletOutlined />}
          value={money(data.total.amount)}
        />
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          testId="stat-today"
          title={t('workplace.today')}
          icon={<FileSearchOutlined />}
          value={data.daily[data.daily.length - 1]?.count ?? 0}
          footer={<Typography.Text type="secondary">{money(data.daily[data.daily.length - 1]?.amount ?? 0)}</Typography.Text>}
        />
      </Col>
    </Row>
  );
}

function LoadingState() {
  return (
    <Flex vertical gap={16} data-testid="workplace-loading">
      <Row gutter={[16, 16]}>
        {Array.from({ length: 8 }, (_, i) => (
          <Col key={i} xs={24} sm={12} xl={6}>
            <Card size="small">
              <Skeleton active paragraph={{ rows: 1 }} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card size="small">
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    </Flex>
  );
}

const ChartsFallback = () => (
  <Card size="small">
    <Skeleton active paragraph={{ rows: 7 }} />
  </Card>
);

/**
 * What the workplace shows under its figures: the charts, the latest and pending orders, the
 * announcements, the renewals, the shortcuts and the recent visits.
 */
function Below({ data, onPublish, onAllAnnouncements }: { data: WorkplaceData; onPublish: () => void; onAllAnnouncements: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Suspense fallback={<ChartsFallback />}>
        <WorkplaceCharts daily={data.daily} results={data.results} />
      </Suspense>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card
            size="small"
            title={t('workplace.latestOrders')}
            extra={<Link to="/order/inspect">{t('workplace.more')}</Link>}
            data-testid="workplace-latest"
          >
            <OrdersTable rows={data.latestOrders} testId="workplace-latest-table" />
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card
            size="small"
            title={t('workplace.announcements')}
            extra={<Typography.Link onClick={onAllAnnouncements}>{t('workplace.more')}</Typography.Link>}
            data-testid="workplace-announcements"
          >
            <AnnouncementList items={data.announcements} />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card
            size="small"
            title={t('workplace.pendingList')}
            extra={<Link to={PENDING_LINK}>{t('workplace.more')}</Link>}
            data-testid="workplace-pending"
          >
            <OrdersTable rows={data.pending.list} testId="workplace-pending-table" />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card
            size="small"
            title={t('workplace.renewalList')}
            extra={<Link to={RENEWALS_LINK}>{t('workplace.more')}</Link>}
            data-testid="workplace-renewals"
          >
            <List
              size="small"
              dataSource={data.renewals.list}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workplace.renewals.empty')} /> }}
              renderItem={(r) => (
                <List.Item key={r.id} extra={<Money fen={r.balance} />}>
                  <Flex gap={8} align="center" wrap>
                    <Typography.Text strong>{r.nickname || r.username}</Typography.Text>
                    <Tag color={r.state === 'expired' ? 'error' : 'warning'}>{t(`workplace.renewal.${r.state}`)}</Tag>
                    <Typography.Text type="secondary">{formatDate(r.serviceEndDate, 'day')}</Typography.Text>
                  </Flex>
                </List.Item>
              )}
            />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('workplace.quick')} data-testid="workplace-quick">
            <Flex wrap gap={8}>
              {data.quickOperations.map((q) =>
                q.key === 'announcement' ? (
                  <Button key={q.key} icon={QUICK_ICONS[q.key]} onClick={onPublish} data-testid="quick-announcement">
                    {t('workplace.quick.announcement')}
                  </Button>
                ) : (
                  <Link key={q.key} to={q.path} data-testid={`quick-${q.key}`}>
                    <Button icon={QUICK_ICONS[q.key]}>{t(`workplace.quick.${q.key}`)}</Button>
                  </Link>
                ),
              )}
            </Flex>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('workplace.recent')} data-testid="workplace-recent">
            <List
              size="small"
              dataSource={data.recentlyVisited}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workplace.recent.empty')} /> }}
              renderItem={(v) => {
                const route = findRouteByPath(v.path.split('?')[0] ?? v.path)?.route;
                const title = route && route.name !== RouteNames.NOT_FOUND ? t(route.meta.locale) : v.path;
                return (
                  <List.Item key={v.path} extra={<Typography.Text type="secondary">{formatDate(v.visitedAt, 'minute')}</Typography.Text>}>
                    <Link to={v.path}>{title}</Link>
                  </List.Item>
                );
              }}
            />
          </Card>
        </Col>
      </Row>
    </>
  );
}

/** Workplace dashboard (docs/product.md "The workplace"): one call, every widget. */
export default function WorkplacePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const actor = useActor();
  const query = useWorkplace();
  const [search, setSearch] = useSearchParams();
  const [allOpen, setAllOpen] = useState(false);
  const publishOpen = search.get('publish') === '1' && can(actor, 'announcement:create');
  const setPublish = (open: boolean) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (open) next.set('publish', '1');
        else next.delete('publish');
        return next;
      },
      { replace: true },
    );
  const data = query.data;
  // The figures (the first view) show with the data; the charts, lists and tables below them a
  // moment later, in a render of their own that gives way to the browser's paint (decision 0117):
  // after a sign-in their render (antd's styles for Table and List, the tables' column
  // measuring) held the figures back as long again.
  const below = useDeferredValue(data ?? null, null);
  const name = user?.nickname || user?.username || '';

  return (
    <div className="workplace" data-testid="workplace">
      <PageHeader
        title={t('workplace.welcome', { name })}
        description={data ? t('workplace.subtitle', { date: formatDate(data.generatedAt, 'day') }) : null}
        extra={
          can(actor, 'announcement:create') ? (
            <Button type="primary" icon={<NotificationOutlined />} onClick={() => setPublish(true)} data-testid="workplace-publish">
              {t('announcement.publish')}
            </Button>
          ) : null
        }
      />
      {query.isError && !data ? (
        <Result
          status="warning"
          title={t('workplace.loadFailed')}
          extra={<Button onClick={() => void query.refetch()}>{t('workplace.retry')}</Button>}
        />
      ) : !data ? (
        <LoadingState />
      ) : (
        <Flex vertical gap={16}>
          <Figures data={data} />
          {data.total.count === 0 ? (
            <Card size="small" data-testid="workplace-empty">
              <Empty description={t('workplace.empty')}>
                {can(actor, 'order:create') || can(actor, 'order:view') ? (
                  <Link to="/order/inspect">
                    <Button type="primary">{t('workplace.empty.action')}</Button>
                  </Link>
                ) : null}
              </Empty>
            </Card>
          ) : null}
          {below ? (
            <Below data={below} onPublish={() => setPublish(true)} onAllAnnouncements={() => setAllOpen(true)} />
          ) : (
            <ChartsFallback />
          )}
        </Flex>
      )}
      <PublishAnnouncementModal open={publishOpen} onClose={() => setPublish(false)} />
      <AnnouncementsDrawer open={allOpen} onClose={() => setAllOpen(false)} />
    </div>
  );
}
