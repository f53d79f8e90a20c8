import { Button, Result, Statistic, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { readResultQuery } from './result-links.ts';

/**
 * `/result/success` (server menu "result"): what the form page's submit and an
 * import lead to. After the form: the order's code, then its profile, another order or the
 * list. After an import: the counts (a warning when some rows were rejected), then the list.
 */
export default function ResultSuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const query = readResultQuery(search);

  if (query.from === 'import') {
    const partial = query.rejected > 0;
    return (
      <div data-testid="result-success" data-from="import" style={{ padding: '24px 0' }}>
        <Result
          status={partial ? 'warning' : 'success'}
          title={partial ? t('pages.result.import.partial') : t('pages.result.import.title')}
          subTitle={t('pages.result.import.text', { imported: query.imported, total: query.total })}
          extra={[
            <Button type="primary" key="list" onClick={() => void navigate('/order/inspect')} data-testid="result-to-list">
              {t('pages.result.toList')}
            </Button>,
            <Button key="form" onClick={() => void navigate('/form/order')} data-testid="result-record-another">
              {t('pages.result.recordAnother')}
            </Button>,
          ]}
        >
          <Flex gap={48} justify="center">
            <Statistic title={t('orderIo.import.result.total')} value={query.total} data-testid="result-import-total" />
            <Statistic title={t('orderIo.import.result.imported')} value={query.imported} data-testid="result-import-imported" />
            <Statistic title={t('orderIo.import.result.rejected')} value={query.rejected} data-testid="result-import-rejected" />
          </Flex>
        </Result>
      </div>
    );
  }

  return (
    <div data-testid="result-success" data-from="form" style={{ padding: '24px 0' }}>
      <Result
        status="success"
        title={t('pages.result.form.title')}
        subTitle={
          query.code ? (
            <span>
              {t('pages.result.form.code')}{' '}
              <Typography.Text copyable strong data-testid="result-order-code">
                {query.code}
              </Typography.Text>
            </span>
          ) : (
            t('pages.result.form.text')
          )
        }
        extra={[
          ...(query.id
            ? [
                <Button
                  type="primary"
                  key="profile"
                  onClick={() => void navigate(`/profile/order/${query.id}`)}
                  data-testid="result-to-profile"
                >
                  {t('pages.result.toProfile')}
                </Button>,
              ]
            : []),
          <Button key="form" onClick={() => void navigate('/form/order')} data-testid="result-record-another">
            {t('pages.result.recordAnother')}
          </Button>,
          <Button key="list" onClick={() => void navigate('/order/inspect')} data-testid="result-to-list">
            {t('pages.result.toList')}
          </Button>,
        ]}
      />
    </div>
  );
}
