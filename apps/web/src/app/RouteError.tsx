import { lazy, Suspense } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';

const NotFound = lazy(() => import('../components/NotFound.tsx'));

/**
 * Errors thrown while routing: a 404 (the role guard found no permitted route) shows the
 * not-found screen; anything else (a chunk that failed to load after a deploy, a bug) shows
 * a short message with a reload link.
 */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Suspense fallback={null}>
        <NotFound />
      </Suspense>
    );
  }
  console.error(error);
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center' }}>
      <p>{t('request.error')}</p>
      <p>
        <a href={window.location.href}>{t('tabBar.reload')}</a>
      </p>
    </div>
  );
}
