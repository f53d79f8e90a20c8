import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isLoggedIn } from '../lib/storage.ts';

export type ExceptionStatus = '403' | '404' | '500';

/**
 * The exception pages (403, 404, 500): the screens of the server menu's "exception" group and
 * what the router's error boundary shows (app/RouteError.tsx). Plain navigation only (no router
 * hook), since it also renders outside a matched route.
 */
export function Exception({ status }: { status: ExceptionStatus }) {
  const { t } = useTranslation();
  const back = () => {
    if (window.history.length > 1) window.history.back();
    else window.location.assign(isLoggedIn() ? '/dashboard/workplace' : '/');
  };
  const text = {
    '403': { title: t('exception.403.title'), sub: t('exception.403.text') },
    '404': { title: t('notFound.title'), sub: t('notFound.text') },
    '500': { title: t('exception.500.title'), sub: t('exception.500.text') },
  }[status];
  return (
    <div data-testid={status === '404' ? 'not-found' : `exception-${status}`} style={{ padding: '48px 16px', boxSizing: 'border-box' }}>
      <Result
        status={status}
        title={text.title}
        subTitle={text.sub}
        extra={
          status === '500' ? (
            <Button type="primary" onClick={() => window.location.reload()}>
              {t('exception.reload')}
            </Button>
          ) : (
            <Button type="primary" onClick={back}>
              {t('notFound.back')}
            </Button>
          )
        }
      />
    </div>
  );
}
