import { useTranslation } from 'react-i18next';
import { APP_NAME } from '../../config/settings.ts';
import { LOCALE_OPTIONS } from '../../lib/i18n.ts';
import { appPath, hrefIn, setMode, switchLanguage, useMode, usePublicHref, usePublicPath, useSignedIn } from './site.ts';
import './public.css';

/**
 * The public pages' top bar: the brand (home), the link store, login (or the app when signed
 * in), the language switch and light/dark. Plain elements and CSS: no antd layout code, no
 * router (every link is a document: the public pages are prerendered, decision 0068).
 */
export function PublicHeader() {
  const { t, i18n } = useTranslation();
  const href = usePublicHref();
  const path = usePublicPath();
  const theme = useMode();
  const signedIn = useSignedIn();
  return (
    <header className="pub-header">
      <a href={href('/')} className="pub-brand" title={t('public.nav.home')}>
        <span className="pub-logo" aria-hidden="true" />
        {APP_NAME}
      </a>
      <nav className="pub-nav">
        <a href={href('/linkstore')} data-testid="public-nav-linkstore">
          {t('public.nav.linkstore')}
        </a>
        <a href={signedIn ? appPath : '/login'} className="pub-cta" data-testid="public-nav-login">
          {signedIn ? t('public.nav.app') : t('public.nav.login')}
        </a>
        <span className="pub-lang" role="group" aria-label={t('navbar.language')} data-testid="public-lang-switch">
          {LOCALE_OPTIONS.map((option) => (
            // A link to the page in that language (crawlers follow it); a click switches in place.
            <a
              key={option.value}
              href={hrefIn(path, option.value)}
              hrefLang={option.value}
              lang={option.value}
              className={i18n.language === option.value ? 'active' : undefined}
              aria-current={i18n.language === option.value ? 'true' : undefined}
              onClick={(event) => {
                event.preventDefault();
                void switchLanguage(option.value);
              }}
            >
              {option.label}
            </a>
          ))}
        </span>
        <button
          type="button"
          className="pub-theme"
          data-testid="public-theme"
          aria-label={theme === 'dark' ? t('public.theme.light') : t('public.theme.dark')}
          title={theme === 'dark' ? t('public.theme.light') : t('public.theme.dark')}
          onClick={() => setMode(theme === 'dark' ? 'light' : 'dark')}
        >
          {theme === 'dark' ? '☀' : '☾'}
        </button>
      </nav>
    </header>
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
