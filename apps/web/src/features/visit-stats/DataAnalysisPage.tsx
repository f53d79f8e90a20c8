import { Suspense, type ReactNode } from 'react';
import { Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { OrdersAnalysis } from '../workplace/index.ts';
import { VisitStatsSection } from './components/VisitStatsSection.tsx';

interface Section {
  key: string;
  title: string;
  content: ReactNode;
}

/**
 * Data analysis (`/visualization/data-analysis`, super admin): a list of sections, each a
 * heading and its charts: the orders by result, game and shop over a chosen range (the
 * workplace feature's OrdersAnalysis, from the order counters), then the visit statistics.
 */
export default function DataAnalysisPage() {
  const { t } = useTranslation();
  const sections: Section[] = [
    {
      key: 'orders',
      title: t('visits.section.orders'),
      content: (
        <Suspense fallback={<Skeleton active />}>
          <OrdersAnalysis />
        </Suspense>
      ),
    },
    { key: 'visits', title: t('visits.section.visits'), content: <VisitStatsSection /> },
  ];
  return (
    <div className="data-analysis-page">
      <PageHeader description={t('page.dataAnalysis.description', { tz: 'Asia/Shanghai' })} />
      <Flex vertical gap={24}>
        {sections.map((s) => (
          <section key={s.key} data-testid={`analysis-section-${s.key}`}>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {s.title}
            </Typography.Title>
            {s.content}
          </section>
        ))}
      </Flex>
    </div>
  );
}
