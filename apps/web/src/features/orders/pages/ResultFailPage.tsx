import { Button, Flex, Result, Statistic, Typography } from 'antd';
import { CloseCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { OrderFormState } from './OrderFormPage.tsx';
import { readResultQuery, type FailState } from './result-links.ts';

/**
 * `/result/fail` (server menu "result"): the form page's submit refused, with the
 * server's reason and "back to the form" (the input comes back); or an import that wrote
 * nothing, with its counts.
 */
export default function ResultFailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const state = useLocation().state as FailState | null;
  const query = readResultQuery(search);

  if (query.from === 'import') {
    return (
      <div data-testid="result-fail" data-from="import" style={{ padding: '24px 0' }}>
        <Result
          status="error"
          title={t('pages.result.import.failed')}
          subTitle={t('pages.result.import.failedText', { rejected: query.rejected, total: query.total })}
          extra={[
            <Button type="primary" key="list" onClick={() => void navigate('/order/inspect')} data-testid="result-to-list">
              {t('pages.result.toList')}
            </Button>,
          ]}
        >
          <Flex gap={48} justify="center">
            <Statistic title={t('orderIo.import.result.total')} value={query.total} />
            <Statistic title={t('orderIo.import.result.rejected')} value={query.rejected} />
          </Flex>
        </Result>
      </div>
    );
  }

  const reasons = state?.errors.length ? state.errors.map((e) => e.message) : state?.message ? [state.message] : [];
  const back: OrderFormState = { restore: true };
  return (
    <div data-testid="result-fail" data-from="form" style={{ padding: '24px 0' }}>
      <Result
        status="error"
        title={t('pages.result.fail.title')}
        subTitle={t('pages.result.fail.text')}
        extra={[
          <Button type="primary" key="back" onClick={() => void navigate('/form/order', { state: back })} data-testid="result-back-to-form">
            {t('pages.result.backToForm')}
          </Button>,
          <Button key="list" onClick={() => void navigate('/order/inspect')} data-testid="result-to-list">
            {t('pages.result.toList')}
          </Button>,
        ]}
      >
        <Typography.Paragraph>
          <Typography.Text strong style={{ fontSize: 16 }}>
            {t('pages.result.fail.reasons')}
          </Typography.Text>
        </Typography.Paragraph>
        <div data-testid="result-fail-reasons">
          {reasons.length ? (
            reasons.map((reason) => (
              <Typography.Paragraph key={reason}>
                <CloseCircleOutlined style={{ color: 'var(--ant-color-error)', marginInlineEnd: 8 }} />
                {reason}
              </Typography.Paragraph>
            ))
          ) : (
            <Typography.Paragraph type="secondary">{t('pages.result.fail.noReason')}</Typography.Paragraph>
          )}
        </div>
      </Result>
    </div>
  );
}
