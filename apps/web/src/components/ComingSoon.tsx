import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MessageKey } from '../locales/zh-CN.ts';
import { PageHeader } from './PageHeader.tsx';

/** An honest placeholder for a screen a later version builds: the header and "coming soon". */
export function ComingSoon({ description }: { description: MessageKey }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader description={t(description)} />
      <Card>
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <>
              <strong>{t('comingSoon.title')}</strong>
              <br />
              {t('comingSoon.text')}
            </>
          }
        />
      </Card>
    </>
  );
}
