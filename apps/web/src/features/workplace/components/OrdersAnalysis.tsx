import { useMemo, useState } from 'react';
import { Card, Col, DatePicker, Empty, Flex, Row, Segmented, Skeleton, Statistic, theme } from 'antd';
import type { Dayjs } from 'dayjs';
import type { OrderAnalysisQuery } from '@clearplay/contract';
import { ANALYSIS_MAX_DAYS, formatMoney, ORDER_DICTS, type AnalysisBucket } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import dayjs from '../../../lib/dayjs.ts';
import { useDictData } from '../../../lib/dicts.ts';
import { useOrderAnalysis } from '../api/workplace.ts';
import { axisStyle, baseOption, EChart, resultColors } from '../../../components/charts/index.ts';

const DAY_FORMAT = 'YYYY-MM-DD';

/**
 * Orders by result, game and shop over a chosen range of business days, in day / week / month
 * buckets (GET /admin/analysis/orders, from the per-day counters). For the data-analysis page.
 */
export default function OrdersAnalysis() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, 'day'), dayjs()]);
  const [bucket, setBucket] = useState<AnalysisBucket>('day');
  const params: OrderAnalysisQuery = { from: range[0].format(DAY_FORMAT), to: range[1].format(DAY_FORMAT), bucket };
  const query = useOrderAnalysis(params);
  const data = query.data;
  const resultLabels = useDictData(ORDER_DICTS.result);
  const labelOf = (result: number) => resultLabels.find((d) => d.value === String(result))?.label ?? String(result);
  const games = useDictData(ORDER_DICTS.game);

  const byResult = useMemo(
    () =>
      data && {
        ...baseOption(token),
        color: resultColors(token),
        grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
        tooltip: { ...baseOption(token).tooltip, trigger: 'axis' },
        xAxis: { type: 'category', data: data.buckets, ...axisStyle(token), splitLine: { show: false } },
        yAxis: { type: 'value', minInterval: 1, ...axisStyle(token) },
        series: data.byResult.map((r) => ({ name: labelOf(r.result), type: 'bar', stack: 'orders', data: r.count })),
      },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- labelOf reads resultLabels
    [data, token, resultLabels],
  );
  const byGame = useMemo(
    () =>
      data && {
        ...baseOption(token),
        color: [token.colorPrimary],
        // One series, named by the card's title: a legend would only cover the top bar.
        legend: { show: false },
        grid: { left: 8, right: 16, top: 8, bottom: 8, containLabel: true },
        tooltip: { ...baseOption(token).tooltip, trigger: 'axis' },
        xAxis: { type: 'value', minInterval: 1, ...axisStyle(token) },
        yAxis: {
          type: 'category',
          inverse: true,
          // A game is stored by its Chinese name: the axis shows the dictionary's label in the reader's language.
          data: data.byGame.map((g) => games.find((d) => d.value === g.gameName)?.label ?? g.gameName),
          ...axisStyle(token),
          splitLine: { show: false },
        },
        series: [{ name: t('analysis.orders'), type: 'bar', data: data.byGame.map((g) => g.total.count) }],
      },
    [data, token, t, games],
  );
  const byShop = useMemo(
    () =>
      data && {
        ...baseOption(token),
        color: [token.colorPrimaryBorder],
        legend: { show: false },
        grid: { left: 8, right: 16, top: 8, bottom: 8, containLabel: true },
        tooltip: { ...baseOption(token).tooltip, trigger: 'axis', valueFormatter: (v: number) => formatMoney(v, i18n.language) },
        xAxis: {
          type: 'value',
          ...axisStyle(token),
          axisLabel: { color: token.colorTextSecondary, formatter: (v: number) => formatMoney(v, i18n.language).replace(/\.00$/, '') },
        },
        yAxis: { type: 'category', inverse: true, data: data.byShop.map((s) => s.name), ...axisStyle(token), splitLine: { show: false } },
        series: [{ name: t('analysis.amount'), type: 'bar', data: data.byShop.map((s) => s.total.amount) }],
      },
    [data, token, t, i18n.language],
  );

  return (
    <Flex vertical gap={16} data-testid="orders-analysis">
      <Flex wrap gap={12} align="center">
        <DatePicker.RangePicker
          value={range}
          allowClear={false}
          disabledDate={(d, info) => (info?.from ? Math.abs(d.diff(info.from, 'day')) >= ANALYSIS_MAX_DAYS : false)}
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          data-testid="analysis-range"
        />
        <Segmented<AnalysisBucket>
          value={bucket}
          onChange={setBucket}
          options={(['day', 'week', 'month'] as const).map((b) => ({ value: b, label: t(`analysis.bucket.${b}`) }))}
          data-testid="analysis-bucket"
        />
      </Flex>
      {!data ? (
        <Card size="small">
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      ) : (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6}>
              <Card size="small">
                <Statistic title={t('analysis.orders')} value={data.total.count} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card size="small">
                <Statistic title={t('analysis.amount')} value={formatMoney(data.total.amount, i18n.language)} />
              </Card>
            </Col>
          </Row>
          {data.total.count === 0 ? (
            <Card size="small">
              <Empty description={t('analysis.empty')} />
            </Card>
          ) : (
            <Row gutter={[16, 16]}>
              <Col xs={24}>
                <Card size="small" title={t('analysis.byResult')}>
                  <EChart option={byResult!} height={300} testId="analysis-result-chart" />
                </Card>
              </Col>
              <Col xs={24} lg={12}>
                <Card size="small" title={t('analysis.byGame')}>
                  <EChart option={byGame!} height={Math.max(200, data.byGame.length * 32)} testId="analysis-game-chart" />
                </Card>
              </Col>
              <Col xs={24} lg={12}>
                <Card size="small" title={t('analysis.byShop')}>
                  <EChart option={byShop!} height={Math.max(200, data.byShop.length * 28)} testId="analysis-shop-chart" />
                </Card>
              </Col>
            </Row>
          )}
        </>
      )}
    </Flex>
  );
}
