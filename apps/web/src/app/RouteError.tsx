import { lazy, Suspense } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';

const NotFound = lazy(() => import('../components/NotFound.tsx'));

/** The plain message, when even the exception page's chunk cannot load (a deploy replaced it). */
function PlainError() {
  const { t } = useTranslation();
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center' }}>
      <p>{t('request.error')}</p>
      <p>
        <a href={window.location.href}>{t('tabBar.reload')}</a>
      </p>
    </div>
  );
}

const Exception = lazy(() =>
  import('../components/Exception.tsx').then(
    (module) => ({ default: module.Exception }),
    () => ({ default: PlainError }),
  ),
);

/**
 * Errors thrown while routing, as the exception pages: a 404 (the role guard found no permitted
 * route) shows the not-found screen, a 403 the forbidden page, anything else (a chunk that failed
 * to load after a deploy, a bug) the 500 page with a reload button.
 */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Suspense fallback={null}>
        <NotFound />
      </Suspense>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <Suspense fallback={null}>
        <Exception status="403" />
      </Suspense>
    );
  }
  console.error(error);
  return (
    <Suspense fallback={<PlainError />}>
      <div role="alert">
        <Exception status="500" />
      </div>
    </Suspense>
  );
}
