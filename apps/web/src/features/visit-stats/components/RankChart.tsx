import { Card, Empty } from 'antd';
import type { VisitRank } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../../components/charts/index.ts';

/** A top-10 list as a horizontal bar chart, the largest on top; an empty state when there is nothing. */
export function RankChart({ title, ranks, testId }: { title: string; ranks: readonly VisitRank[]; testId: string }) {
  const { t } = useTranslation();
  const rows = [...ranks].reverse();
  return (
    <Card title={title} size="small" data-testid={testId}>
      {ranks.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('visits.empty')} />
      ) : (
        <EChart
          testId={`${testId}-chart`}
          height={Math.max(160, rows.length * 28 + 40)}
          option={{
            grid: { left: 8, right: 40, top: 8, bottom: 8, containLabel: true },
            tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
            xAxis: { type: 'value', minInterval: 1 },
            yAxis: {
              type: 'category',
              data: rows.map((r) => r.name),
              axisLabel: { width: 160, overflow: 'truncate' },
            },
            series: [{ type: 'bar', name: t('visits.count'), data: rows.map((r) => r.count), label: { show: true, position: 'right' } }],
          }}
        />
      )}
    </Card>
  );
}
