import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isLoggedIn } from '../lib/storage.ts';

/** The not-found screen (any unknown path, or no permitted route for the role). */
export default function NotFound() {
  const { t } = useTranslation();
  // A plain link: this screen also renders from the router's error boundary.
  const back = () => {
    if (window.history.length > 1) window.history.back();
    else window.location.assign(isLoggedIn() ? '/dashboard/workplace' : '/');
  };
  return (
    <div data-testid="not-found" style={{ padding: '48px 16px', minHeight: '100vh', boxSizing: 'border-box' }}>
      <Result
        status="404"
        title={t('notFound.title')}
        subTitle={t('notFound.text')}
        extra={
          <Button type="primary" onClick={back}>
            {t('notFound.back')}
          </Button>
        }
      />
    </div>
  );
}
