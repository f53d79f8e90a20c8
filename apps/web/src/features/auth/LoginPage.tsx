import { useTranslation } from 'react-i18next';
import { APP_NAME } from '../../config/settings.ts';
import { LOCALE_OPTIONS, setLocale } from '../../lib/i18n.ts';
import { LoginBanner } from './components/LoginBanner.tsx';
import { LoginForm } from './components/LoginForm.tsx';
import './login.css';

/**
 * /login: title, banner with slogans, the form, language switch. Kept light: no
 * layout, menu, dropdown, modal, form-library or TanStack Query code loads before the form
 * shows (the budget is 200 KB gzip for everything up to here; see apps/web/README.md).
 */
export default function LoginPage() {
  const { t, i18n } = useTranslation();
  return (
    <div className="login-page">
      <LoginBanner />
      <main className="login-main">
        <header className="login-topbar">
          <span className="login-logo" aria-hidden="true" />
          <span className="login-brand">{APP_NAME}</span>
          <div className="login-lang" role="group" aria-label={t('navbar.language')} data-testid="login-lang-switch">
            {LOCALE_OPTIONS.map((option) => (
              <button
                key={option.value}
                type="button"
                lang={option.value}
                className={i18n.language === option.value ? 'login-lang-option active' : 'login-lang-option'}
                aria-pressed={i18n.language === option.value}
                onClick={() => void setLocale(option.value)}
              >
                {option.label}
              </button>
            ))}
          </div>
        </header>
        <section className="login-panel">
          <h1 className="login-title">{t('login.title')}</h1>
          <p className="login-subtitle">{t('login.subtitle')}</p>
          <LoginForm />
        </section>
        <footer className="login-footer">{t('footer.text')}</footer>
      </main>
    </div>
  );
}
