import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, type InputRef } from 'antd';
import Input from 'antd/es/input/Input';
import type { LoginChallenge, TotpEnrolment } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { loadScreenMessages } from '../../../lib/i18n.ts';
import { loginEnrol, loginSecondFactor } from '../api/second-factor.ts';
import { charLimit } from '../../../lib/char-limit.ts';

// Loaded when shown, so its chunk is not in the list the login page's first load carries for this step.
const RecoveryCodes = lazy(() => import('../../../components/RecoveryCodes.tsx').then((m) => ({ default: m.RecoveryCodes })));

export interface SecondFactorStepProps {
  challenge: LoginChallenge;
  /** The session is open: the sign-in goes on with this token. */
  onSignedIn: (token: string) => Promise<void>;
  /** Back to the password (a ticket that expired, or "back"). */
  onRestart: () => void;
}

/**
 * The sign-in's second step (decision 0091), after the right password: the six-digit code of
 * the authenticator app, or a recovery code ("use a recovery code"); or, for an account that
 * must have a second factor and has none, setting one up first: the QR code and the secret,
 * the first code, then the ten recovery codes, shown once. Loaded only when a sign-in needs it.
 */
export default function SecondFactorStep({ challenge, onSignedIn, onRestart }: SecondFactorStepProps) {
  const { t } = useTranslation();
  const enrol = challenge.secondFactor === 'enrol';
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [done, setDone] = useState<{ token: string; recoveryCodes: string[] } | null>(null);
  const inputRef = useRef<InputRef>(null);
  // Its texts are in the screens' messages (not the login page's first load): shown once they are there.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let live = true;
    void loadScreenMessages()
      .catch(() => undefined)
      .then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (!enrol) return;
    let live = true;
    loginEnrol(challenge.ticket).then(
      (answer) => live && setEnrolment(answer),
      (e: unknown) => live && setError(e instanceof ApiError ? e.message : t('login.form.login.errMsg')),
    );
    return () => {
      live = false;
    };
  }, [enrol, challenge.ticket, t]);

  useEffect(() => inputRef.current?.focus(), [useRecovery, enrolment, ready]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const typed = value.trim();
    if (typed === '') {
      setError(t(useRecovery ? 'login.secondFactor.recoveryCode.errMsg' : 'login.secondFactor.code.errMsg'));
      return inputRef.current?.focus();
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await loginSecondFactor(
        useRecovery ? { ticket: challenge.ticket, recoveryCode: typed } : { ticket: challenge.ticket, code: typed.replace(/\s+/g, '') },
      );
      if (answer.recoveryCodes !== undefined) {
        setDone({ token: answer.token, recoveryCodes: answer.recoveryCodes });
        setBusy(false);
      } else await onSignedIn(answer.token);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('login.form.login.errMsg'));
      setValue('');
      setBusy(false);
      inputRef.current?.focus();
    }
  };

  if (!ready) return null;

  if (done !== null) {
    return (
      <div className="login-form" data-testid="login-recovery-codes">
        <h2 className="login-step-title">{t('login.secondFactor.saveCodes.title')}</h2>
        <Suspense fallback={null}>
          <RecoveryCodes codes={done.recoveryCodes} />
        </Suspense>
        <Button
          type="primary"
          size="large"
          block
          loading={busy}
          style={{ marginTop: 16 }}
          data-testid="login-continue"
          onClick={() => {
            setBusy(true);
            void onSignedIn(done.token);
          }}
        >
          {t('login.secondFactor.saveCodes.continue')}
        </Button>
      </div>
    );
  }

  return (
    <form className="login-form" noValidate onSubmit={(e) => void submit(e)} data-testid="login-second-factor">
      <h2 className="login-step-title">{t(enrol ? 'login.secondFactor.enrol.title' : 'login.secondFactor.title')}</h2>
      {enrol ? (
        <div className="login-enrol" data-testid="login-enrol">
          <p className="login-step-text">{t('login.secondFactor.enrol.text')}</p>
          {enrolment ? (
            <>
              <img className="login-qr" src={enrolment.qrCode} width={180} height={180} alt={t('secondFactor.qrAlt')} />
              <p className="login-step-text">
                {t('secondFactor.secretLabel')}{' '}
                <code className="login-secret" data-testid="login-enrol-secret">
                  {enrolment.secret}
                </code>
              </p>
            </>
          ) : null}
        </div>
      ) : (
        <p className="login-step-text">{t(useRecovery ? 'login.secondFactor.recoveryCode.text' : 'login.secondFactor.text')}</p>
      )}
      <div className="login-field">
        <Input
          ref={inputRef}
          size="large"
          data-testid={useRecovery ? 'login-recovery-code' : 'login-code'}
          name={useRecovery ? 'recoveryCode' : 'code'}
          placeholder={t(useRecovery ? 'login.secondFactor.recoveryCode.placeholder' : 'login.secondFactor.code.placeholder')}
          aria-label={t(useRecovery ? 'login.secondFactor.recoveryCode.placeholder' : 'login.secondFactor.code.placeholder')}
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          count={charLimit(useRecovery ? 24 : 6)}
          disabled={busy || (enrol && enrolment === null)}
          value={value}
          onChange={(event) => setValue(useRecovery ? event.target.value : event.target.value.replace(/\D/g, ''))}
        />
      </div>
      {error ? (
        <div role="alert" className="login-error" data-testid="login-error">
          {error}
        </div>
      ) : null}
      <Button data-testid="login-code-submit" type="primary" htmlType="submit" size="large" block loading={busy} aria-busy={busy}>
        {t(enrol ? 'login.secondFactor.enrol.confirm' : 'login.secondFactor.verify')}
      </Button>
      <div className="login-options" style={{ marginTop: 12 }}>
        {enrol ? (
          <span />
        ) : (
          <Button
            type="link"
            size="small"
            disabled={busy}
            data-testid="login-use-recovery"
            onClick={() => {
              setUseRecovery(!useRecovery);
              setValue('');
              setError(null);
            }}
          >
            {t(useRecovery ? 'login.secondFactor.useCode' : 'login.secondFactor.useRecoveryCode')}
          </Button>
        )}
        <Button type="link" size="small" disabled={busy} onClick={onRestart} data-testid="login-back">
          {t('login.secondFactor.back')}
        </Button>
      </div>
    </form>
  );
}
