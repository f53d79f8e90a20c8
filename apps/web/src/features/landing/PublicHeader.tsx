import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { APP_NAME } from '../../config/settings.ts';
import { findRouteByName, RouteNames } from '../../config/paths.ts';
import { LOCALE_OPTIONS, setLocale } from '../../lib/i18n.ts';
import { setTheme, useAppState } from '../../lib/settings.ts';
import { isLoggedIn } from '../../lib/storage.ts';
import { queryClient } from '../../lib/query-client.ts';
import './public.css';

/** The app a signed-in visitor goes back to: the order list, which every role has. */
const appPath = findRouteByName(RouteNames.INSPECT)?.route.path ?? '/';

/**
 * The public pages' top bar: the brand (home), the link store, login (or the app when signed
 * in), the language switch and light/dark. Plain elements and CSS: no antd layout code.
 */
export function PublicHeader() {
  const { t, i18n } = useTranslation();
  const theme = useAppState((s) => s.theme);
  const signedIn = isLoggedIn();
  return (
    <header className="pub-header">
      <Link to="/" className="pub-brand" title={t('public.nav.home')}>
        <span className="pub-logo" aria-hidden="true" />
        {APP_NAME}
      </Link>
      <nav className="pub-nav">
        <Link to="/linkstore" data-testid="public-nav-linkstore">
          {t('public.nav.linkstore')}
        </Link>
        <Link to={signedIn ? appPath : '/login'} className="pub-cta" data-testid="public-nav-login">
          {signedIn ? t('public.nav.app') : t('public.nav.login')}
        </Link>
        <span className="pub-lang" role="group" aria-label={t('navbar.language')} data-testid="public-lang-switch">
          {LOCALE_OPTIONS.map((option) => (
            <button
              key={option.value}
              type="button"
              lang={option.value}
              className={i18n.language === option.value ? 'active' : ''}
              aria-pressed={i18n.language === option.value}
              // Prices, links and results carry the server's labels in the reader's language: fetched again.
              onClick={() => void setLocale(option.value).then(() => queryClient.invalidateQueries())}
            >
              {option.label}
            </button>
          ))}
        </span>
        <button
          type="button"
          className="pub-theme"
          data-testid="public-theme"
          aria-label={theme === 'dark' ? t('public.theme.light') : t('public.theme.dark')}
          title={theme === 'dark' ? t('public.theme.light') : t('public.theme.dark')}
          onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
        >
          {theme === 'dark' ? '☀' : '☾'}
        </button>
      </nav>
    </header>
  );
}

/**
 * Open Graph tags of a public page (React 19 hoists them into <head>), so a shared link shows
 * the page's own title and description. The static description of index.html stays the default.
 */
export function PublicMeta({ title, description }: { title: string; description: string }) {
  return (
    <>
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={APP_NAME} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={window.location.origin + window.location.pathname} />
    </>
  );
}

export function PublicFooter() {
  const { t } = useTranslation();
  return <footer className="pub-footer">{t('public.footer')}</footer>;
}

const RESULT_KEYS: Record<number, 'public.result.0' | 'public.result.1' | 'public.result.2' | 'public.result.3'> = {
  0: 'public.result.0',
  1: 'public.result.1',
  2: 'public.result.2',
  3: 'public.result.3',
};

/** A result as a coloured tag: the dictionary's tag colour, the label in the reader's language for the four known results. */
export function ResultTag({ result, label, listClass }: { result: number; label: string; listClass: string }) {
  const { t } = useTranslation();
  const key = RESULT_KEYS[result];
  const text = key === undefined ? label : t(key);
  return <span className={`pub-tag pub-tag-${listClass}`}>{text}</span>;
}
