import { Alert, Button, Card, Col, Empty, List, Row, Skeleton, Statistic, Table, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { formatMoney } from '@clearplay/contract/constants';
import type { MonitorData, MonitorImport, OnlineStaff } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../components/charts/index.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatDate } from '../../lib/date.ts';
import { useMonitor } from './api/monitor.ts';

function HourlyChart({ data }: { data: MonitorData }) {
  const { t, i18n } = useTranslation();
  return (
    <EChart
      testId="monitor-hourly-chart"
      option={{
        grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
        tooltip: { trigger: 'axis' },
        legend: { top: 0 },
        xAxis: { type: 'category', data: data.hours.map((h) => t('monitor.hour', { hour: h.hour })) },
        yAxis: [
          { type: 'value', minInterval: 1, name: t('monitor.orders') },
          { type: 'value', name: t('monitor.amount'), axisLabel: { formatter: (v: number) => formatMoney(v, i18n.language) } },
        ],
        series: [
          { type: 'bar', name: t('monitor.orders'), data: data.hours.map((h) => h.count) },
          {
            type: 'line',
            name: t('monitor.amount'),
            yAxisIndex: 1,
            smooth: true,
            data: data.hours.map((h) => h.amount),
            tooltip: { valueFormatter: (v: unknown) => formatMoney(Number(v), i18n.language) },
          },
        ],
      }}
    />
  );
}

/** An import's tag: written in full, written in part (valid rows kept), or nothing written. */
const OUTCOME_COLOR: Record<MonitorImport['outcome'], string> = { succeeded: 'success', partial: 'warning', failed: 'error' };

/**
 * The monitor (`/dashboard/monitor`, super admin): today's orders per hour, count and amount,
 * the staff online now and the latest order imports, refreshed every 30 s while visible.
 */
export default function MonitorPage() {
  const { t, i18n } = useTranslation();
  const { data, isPending, isError, isFetching, refetch } = useMonitor();

  const staffColumns = [
    {
      key: 'user',
      title: t('monitor.user'),
      render: (_: unknown, s: OnlineStaff) => (
        <span>
          {s.nickname} <Typography.Text type="secondary">({s.username})</Typography.Text>
        </span>
      ),
    },
    { key: 'role', title: t('monitor.role'), dataIndex: 'roleName', width: 120, render: (role: string) => <Tag>{role}</Tag> },
    { key: 'lastSeen', title: t('monitor.lastSeen'), dataIndex: 'lastSeenAt', width: 170, render: (at: string) => formatDate(at) },
  ];

  return (
    <div className="monitor-page" data-testid="monitor-page">
      <PageHeader
        description={t('monitor.description')}
        extra={
          <>
            {data ? (
              <Typography.Text type="secondary">{t('monitor.updatedAt', { time: formatDate(data.generatedAt) })}</Typography.Text>
            ) : null}
            <Button icon={<ReloadOutlined />} loading={isFetching} onClick={() => void refetch()}>
              {t('monitor.refresh')}
            </Button>
          </>
        }
      />
      {isPending ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : isError ? (
        <Alert type="error" showIcon title={t('monitor.loadFailed')} />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} sm={8}>
            <Card size="small">
              <Statistic title={t('monitor.todayCount')} value={data.todayCount} data-testid="monitor-today-count" />
            </Card>
          </Col>
          <Col xs={24} sm={8}>
            <Card size="small">
              <Statistic
                title={t('monitor.todayAmount')}
                value={data.todayAmount}
                formatter={(v) => formatMoney(Number(v), i18n.language)}
                data-testid="monitor-today-amount"
              />
            </Card>
          </Col>
          <Col xs={24} sm={8}>
            <Card size="small">
              <Statistic
                title={t('monitor.online')}
                value={data.onlineStaff.length}
                suffix={
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('monitor.onlineHint', { minutes: data.onlineWindowMinutes })}
                  </Typography.Text>
                }
                data-testid="monitor-online-count"
              />
            </Card>
          </Col>
          <Col span={24}>
            <Card size="small" title={`${t('monitor.perHour')} · ${data.date}`}>
              <HourlyChart data={data} />
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card size="small" title={t('monitor.online')} data-testid="monitor-online">
              <Table<OnlineStaff>
                rowKey="id"
                size="small"
                pagination={false}
                scroll={{ x: 'max-content' }}
                columns={staffColumns}
                dataSource={data.onlineStaff}
                locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitor.noneOnline')} /> }}
              />
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card size="small" title={t('monitor.latestImports')} data-testid="monitor-imports">
              {data.latestImports.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitor.noImports')} />
              ) : (
                <List
                  size="small"
                  dataSource={data.latestImports}
                  renderItem={(item) => (
                    <List.Item
                      extra={
                        <Tag color={OUTCOME_COLOR[item.outcome]} data-testid="monitor-import-outcome">
                          {t(`monitor.outcome.${item.outcome}`)}
                        </Tag>
                      }
                    >
                      <List.Item.Meta
                        title={item.content}
                        description={`${item.operator} · ${formatDate(item.createTime)} · ${item.durationMs} ms`}
                      />
                    </List.Item>
                  )}
                />
              )}
            </Card>
          </Col>
        </Row>
      )}
    </div>
  );
}
