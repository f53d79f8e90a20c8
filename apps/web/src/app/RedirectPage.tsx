import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';

/**
 * /redirect/:path (hidden). The tab bar's "reload" navigates here with the tab's path
 * (URL-encoded) and its query; this screen replaces itself with that path, so the screen
 * mounts afresh.
 */
export default function RedirectPage() {
  const { path = '/' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  useEffect(() => {
    const target = path.startsWith('/') ? path : `/${path}`;
    void navigate({ pathname: target, search }, { replace: true });
  }, [navigate, path, search]);
  return <div style={{ padding: 24 }}>{t('redirect.text')}</div>;
}
