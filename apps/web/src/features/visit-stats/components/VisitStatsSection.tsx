import { Alert, Card, Col, Row, Skeleton, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../../components/charts/index.ts';
import { useVisitOverview } from '../api/overview.ts';
import { RankChart } from './RankChart.tsx';

/** The visit statistics of GET /admin/visit-stats/overview: today, 30 days per day, and the top 10s. */
export function VisitStatsSection() {
  const { t } = useTranslation();
  const { data, isPending, isError } = useVisitOverview();
  if (isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (isError) return <Alert type="error" showIcon title={t('visits.loadFailed')} />;
  const totalPv = data.days.reduce((sum, d) => sum + d.pv, 0);
  const avgUv = data.days.reduce((sum, d) => sum + d.uv, 0) / data.days.length;
  const stats = [
    { key: 'today-pv', title: t('visits.today.pv'), value: data.today.pv },
    { key: 'today-uv', title: t('visits.today.uv'), value: data.today.uv },
    { key: 'total-pv', title: t('visits.total.pv'), value: totalPv },
    { key: 'avg-uv', title: t('visits.avg.uv'), value: Math.round(avgUv * 10) / 10 },
  ];
  return (
    <div data-testid="visit-stats">
      <Row gutter={[16, 16]}>
        {stats.map((s) => (
          <Col key={s.key} xs={12} lg={6}>
            <Card size="small">
              <Statistic title={s.title} value={s.value} data-testid={`visits-${s.key}`} />
            </Card>
          </Col>
        ))}
        <Col span={24}>
          <Card size="small" title={t('visits.daily')}>
            <EChart
              testId="visits-daily-chart"
              option={{
                grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
                tooltip: { trigger: 'axis' },
                legend: { top: 0 },
                xAxis: { type: 'category', boundaryGap: false, data: data.days.map((d) => d.date.slice(5)) },
                yAxis: { type: 'value', minInterval: 1 },
                series: [
                  { type: 'line', name: t('visits.pv'), smooth: true, areaStyle: { opacity: 0.15 }, data: data.days.map((d) => d.pv) },
                  { type: 'line', name: t('visits.uv'), smooth: true, data: data.days.map((d) => d.uv) },
                ],
              }}
            />
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <RankChart title={t('visits.topPages')} ranks={data.topPages} testId="visits-top-pages" />
        </Col>
        <Col xs={24} xl={8}>
          <RankChart title={t('visits.topReferrers')} ranks={data.topReferrers} testId="visits-top-referrers" />
        </Col>
        <Col xs={24} xl={8}>
          <RankChart title={t('visits.topEvents')} ranks={data.topEvents} testId="visits-top-events" />
        </Col>
      </Row>
    </div>
  );
}
