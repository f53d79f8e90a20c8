import { useMemo } from 'react';
import { Card, Col, Empty, Row, theme } from 'antd';
import type { DailyTally, ResultTally } from '@clearplay/contract';
import { ORDER_DICTS, formatMoney } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { useDictData } from '../../../lib/dicts.ts';
import { axisStyle, baseOption, EChart, resultColors } from '../../../components/charts/index.ts';

/**
 * The workplace's charts (a lazy chunk with ECharts): the daily count (line) and amount (bars)
 * of the last 30 days, and the share of each result (donut).
 */
export default function WorkplaceCharts({ daily, results }: { daily: readonly DailyTally[]; results: readonly ResultTally[] }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const resultLabels = useDictData(ORDER_DICTS.result);
  const labelOf = (result: number) => resultLabels.find((d) => d.value === String(result))?.label ?? String(result);

  const series = useMemo(
    () => ({
      ...baseOption(token),
      color: [token.colorPrimaryBorder, token.colorPrimary],
      grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
      tooltip: { ...baseOption(token).tooltip, trigger: 'axis' },
      xAxis: { type: 'category', data: daily.map((d) => d.date.slice(5)), ...axisStyle(token), splitLine: { show: false } },
      yAxis: [
        {
          type: 'value',
          name: t('workplace.chart.count'),
          minInterval: 1,
          ...axisStyle(token),
          nameTextStyle: { color: token.colorTextSecondary },
        },
        {
          type: 'value',
          name: t('workplace.chart.amount'),
          ...axisStyle(token),
          splitLine: { show: false },
          nameTextStyle: { color: token.colorTextSecondary },
          axisLabel: { color: token.colorTextSecondary, formatter: (v: number) => formatMoney(v, i18n.language).replace(/\.00$/, '') },
        },
      ],
      series: [
        {
          name: t('workplace.chart.amount'),
          type: 'bar',
          yAxisIndex: 1,
          data: daily.map((d) => d.amount),
          itemStyle: { borderRadius: [3, 3, 0, 0] },
          tooltip: { valueFormatter: (v: number) => formatMoney(v, i18n.language) },
        },
        { name: t('workplace.chart.count'), type: 'line', smooth: true, data: daily.map((d) => d.count), symbolSize: 5, z: 3 },
      ],
    }),
    // resultLabels: labels follow the dictionary store; token: theme colour and dark mode
    [daily, token, t, i18n.language],
  );

  const shares = useMemo(
    () => ({
      ...baseOption(token),
      color: resultColors(token),
      tooltip: { ...baseOption(token).tooltip, trigger: 'item', formatter: '{b}: {c} ({d}%)' },
      series: [
        {
          name: t('workplace.results'),
          type: 'pie',
          radius: ['42%', '74%'],
          center: ['50%', '56%'],
          itemStyle: { borderColor: token.colorBgContainer, borderWidth: 2 },
          // Inside the ring, so a narrow card never cuts a label.
          label: { position: 'inside', color: '#fff', fontWeight: 600, formatter: '{d}%' },
          minShowLabelAngle: 12,
          data: results.map((r) => ({ name: labelOf(r.result), value: r.count })),
        },
      ],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- labelOf reads resultLabels
    [results, token, t, resultLabels],
  );

  const empty = results.every((r) => r.count === 0);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={16}>
        <Card title={t('workplace.daily')} size="small" data-testid="workplace-daily-card">
          <EChart option={series} height={280} testId="workplace-daily-chart" />
        </Card>
      </Col>
      <Col xs={24} lg={8}>
        <Card title={t('workplace.results')} size="small" data-testid="workplace-results-card">
          {empty ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workplace.noOrders')} style={{ height: 248 }} />
          ) : (
            <EChart option={shares} height={280} testId="workplace-results-chart" />
          )}
        </Card>
      </Col>
    </Row>
  );
}
