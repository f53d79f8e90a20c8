import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { Button, type InputRef } from 'antd';
// The bare Input and Password: antd's `Input` also carries TextArea, Search and OTP.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import type { LoginChallenge } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { setLocale } from '../../../lib/i18n.ts';
import { StorageKey, removeToken, setToken, storage } from '../../../lib/storage.ts';
import { warmUpCode, warmUpScreen, warmUpUser } from '../../../lib/warm-up.ts';
import { loadSavedLocale, login, savedLocale } from '../api/login.ts';
import { afterLoginLocation } from '../redirect.ts';

// Loaded on click, so the modal code is not part of the login page's first load.
const AccountHelpModal = lazy(() => import('./AccountHelpModal.tsx'));
// Loaded when a sign-in needs a second factor (decision 0091): most sign-ins never load it before.
const SecondFactorStep = lazy(() => import('./SecondFactorStep.tsx'));

type Field = 'username' | 'password';

const ERROR_KEYS = {
  username: 'login.form.username.errMsg',
  password: 'login.form.password.errMsg',
} as const;

/**
 * The login form. A small hand-written form (two required fields) instead of antd's Form:
 * antd Form with its validator and tooltip code is about 30 KB gzip, which the login page's
 * 200 KB first-load budget cannot afford. It looks and behaves like an antd vertical form.
 */
export function LoginForm() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const location = useLocation();

  const remembered = storage.read(StorageKey.REMEMBERED_USERNAME);
  const [username, setUsername] = useState(remembered ?? '');
  const [password, setPassword] = useState('');
  const [rememberPassword, setRememberPassword] = useState(Boolean(remembered));
  const [invalid, setInvalid] = useState<Record<Field, boolean>>({ username: false, password: false });
  const [loginError, setLoginError] = useState<{ serverMsg: string | null } | null>(null);
  const [help, setHelp] = useState<'forgetPassword' | 'register' | null>(null);
  // The password was right and a second factor comes next: the step, and who signs in.
  const [challenge, setChallenge] = useState<{ challenge: LoginChallenge; username: string; remember: boolean } | null>(null);
  // From the click until the next screen shows (not only the sign-in call): the page this
  // started on. A navigation that ends on the login page again (a new location) is over.
  const [busyAt, setBusyAt] = useState<string | null>(null);
  const busy = busyAt === location.key;
  const usernameRef = useRef<InputRef>(null);
  const passwordRef = useRef<InputRef>(null);
  const rememberRef = useRef<HTMLInputElement>(null);

  // Spec §5: username cannot be empty; password cannot be empty.
  const check = (field: Field, value: string) => setInvalid((prev) => ({ ...prev, [field]: value.length === 0 }));

  const submit = async (values: { username: string; password: string; remember: boolean }) => {
    if (busy) return;
    const errors = { username: values.username.trim().length === 0, password: values.password.length === 0 };
    setInvalid(errors);
    if (errors.username) return usernameRef.current?.focus();
    if (errors.password) return passwordRef.current?.focus();

    setLoginError(null);
    setBusyAt(location.key);
    const next = afterLoginLocation(searchParams);
    try {
      const name = values.username.trim();
      const signedIn = login({ username: name, password: values.password, remember: values.remember });
      // The next screen's code loads while the server checks the password, not after.
      warmUpScreen(next);
      loadSavedLocale().catch(() => undefined);
      const answer = await signedIn;
      if ('secondFactor' in answer) {
        // The code (or setting up the app) comes next; no session yet.
        setChallenge({ challenge: answer, username: name, remember: values.remember });
        setBusyAt(null);
        return;
      }
      await enter(answer.token, name, values.remember);
    } catch (error) {
      // Spec §4: a failed login removes any token.
      removeToken();
      setLoginError({ serverMsg: error instanceof ApiError ? error.message : null });
      setBusyAt(null);
    }
  };

  /** A session is open: keep the token, apply the saved language, go to the next screen. */
  const enter = async (token: string, name: string, remember: boolean) => {
    setToken(token);
    // "Remember password" keeps the username only; the server gives the long session.
    storage.write(StorageKey.REMEMBERED_USERNAME, remember ? name : null);
    // The user's info (the route guard's) comes beside the saved language, not after it.
    warmUpUser();
    // The language saved in the user's settings wins over this browser's.
    const locale = await savedLocale();
    if (locale !== null && locale !== i18n.language) await setLocale(locale);
    await navigate(afterLoginLocation(searchParams), { replace: true });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit({ username, password, remember: rememberPassword });
  };

  // The form is prerendered (src/prerender/login.tsx): what was typed or ticked before React
  // hydrated it is in the DOM only. Adopt it once, so the fields and the state agree; and a
  // submit that login.html's guard held back meanwhile is made now, with those values.
  const submitHeldBack = useEffectEvent((values: Parameters<typeof submit>[0]) => void submit(values));
  useEffect(() => {
    const typed = {
      username: usernameRef.current?.input?.value ?? '',
      password: passwordRef.current?.input?.value ?? '',
      remember: rememberRef.current?.checked ?? false,
    };
    if (typed.username) setUsername(typed.username);
    if (typed.password) setPassword(typed.password);
    if (typed.remember) setRememberPassword(true);
    const root = document.getElementById('root');
    if (root?.hasAttribute('data-submit-pending')) {
      root.removeAttribute('data-submit-pending');
      submitHeldBack(typed);
    }
  }, []);

  const fieldError = (field: Field) =>
    invalid[field] ? (
      <div id={`login-${field}-error`} className="login-field-error" role="alert">
        {t(ERROR_KEYS[field])}
      </div>
    ) : null;

  if (challenge !== null) {
    return (
      <Suspense fallback={null}>
        <SecondFactorStep
          challenge={challenge.challenge}
          onSignedIn={(token) => enter(token, challenge.username, challenge.remember)}
          onRestart={() => setChallenge(null)}
        />
      </Suspense>
    );
  }

  return (
    <>
      <form
        className="login-form"
        noValidate
        onSubmit={onSubmit}
        // The user has started on the form: the signed-in screens' table comes in meanwhile.
        onKeyDownCapture={warmUpCode}
        onPointerDownCapture={warmUpCode}
        onInputCapture={warmUpCode}
      >
        <div className="login-field">
          <Input
            ref={usernameRef}
            size="large"
            data-testid="login-username"
            name="username"
            prefix={<UserOutlined />}
            placeholder={t('login.form.username.placeholder')}
            aria-label={t('login.form.username.placeholder')}
            aria-invalid={invalid.username}
            aria-describedby={invalid.username ? 'login-username-error' : undefined}
            autoComplete="username"
            disabled={busy}
            status={invalid.username ? 'error' : undefined}
            value={username}
            onChange={(event) => {
              setUsername(event.target.value);
              check('username', event.target.value.trim());
            }}
          />
          {fieldError('username')}
        </div>
        <div className="login-field">
          <Password
            ref={passwordRef}
            size="large"
            data-testid="login-password"
            name="password"
            prefix={<LockOutlined />}
            placeholder={t('login.form.password.placeholder')}
            aria-label={t('login.form.password.placeholder')}
            aria-invalid={invalid.password}
            aria-describedby={invalid.password ? 'login-password-error' : undefined}
            autoComplete="current-password"
            disabled={busy}
            status={invalid.password ? 'error' : undefined}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              check('password', event.target.value);
            }}
          />
          {fieldError('password')}
        </div>
        <div className="login-options">
          {/* A native checkbox in the primary colour (budget: antd's Checkbox is ~3 KB gzip). */}
          <label className="login-remember">
            <input
              ref={rememberRef}
              type="checkbox"
              name="rememberPassword"
              checked={rememberPassword}
              disabled={busy}
              onChange={(event) => setRememberPassword(event.target.checked)}
            />
            <span>{t('login.form.rememberPassword')}</span>
          </label>
          <Button type="link" size="small" disabled={busy} onClick={() => setHelp('forgetPassword')}>
            {t('login.form.forgetPassword')}
          </Button>
        </div>
        {loginError ? (
          // One failure, one message: the server's reason (wrong password, locked, disabled), or
          // the spec's text (§5) when there is none (no answer, a broken one).
          <div role="alert" className="login-error" data-testid="login-error">
            {loginError.serverMsg || t('login.form.login.errMsg')}
          </div>
        ) : null}
        <Button data-testid="login-submit" type="primary" htmlType="submit" size="large" block loading={busy} aria-busy={busy}>
          {busy ? t('login.form.loggingIn') : t('login.form.login')}
        </Button>
        <Button type="text" block className="login-register" disabled={busy} onClick={() => setHelp('register')}>
          {t('login.form.register')}
        </Button>
      </form>
      {help ? (
        <Suspense fallback={null}>
          <AccountHelpModal kind={help} onClose={() => setHelp(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
