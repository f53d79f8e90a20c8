import { useState } from 'react';
import { Alert, App, Button, Card, Input, Modal, Space, Typography } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import type { TotpEnrolment } from '@clearplay/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RecoveryCodes } from '../../../components/RecoveryCodes.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/date.ts';
import { accountKeys, useConfirmEnrolment, useDisableSecondFactor, useSecondFactor, useStartEnrolment } from '../api/account.ts';
import { charLimit } from '../../../lib/char-limit.ts';

const errorText = (error: unknown) => (error instanceof ApiError ? error.message : null);

/**
 * "Two-step verification" in the user settings (decision 0091): turn it on (QR code and the
 * key as text, the first code to confirm, then the ten recovery codes, shown once, with a copy
 * button); turn it off with a code where the role does not require it. A demo account says
 * that it is exempt.
 */
export function SecondFactorCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { data: state } = useSecondFactor();
  const start = useStartEnrolment();
  const confirm = useConfirmEnrolment();
  const disable = useDisableSecondFactor();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [proof, setProof] = useState('');

  const begin = async () => {
    const answer = await start.mutateAsync().catch(() => null);
    if (answer === null) return;
    setEnrolment(answer);
    setCode('');
    setError(null);
  };

  const finish = async () => {
    setError(null);
    try {
      const answer = await confirm.mutateAsync(code.trim());
      setEnrolment(null);
      setRecoveryCodes(answer.recoveryCodes);
      void message.success(t('account.secondFactor.enabled'));
    } catch (e) {
      setError(errorText(e) ?? t('request.error'));
    }
  };

  const turnOff = async () => {
    setError(null);
    const typed = proof.trim();
    // Six digits: the app's code; anything longer: a recovery code.
    const body = /^\d{6}$/.test(typed) ? { code: typed } : { recoveryCode: typed };
    try {
      await disable.mutateAsync(body);
      setDisabling(false);
      setProof('');
      void message.success(t('account.secondFactor.disabled'));
    } catch (e) {
      setError(errorText(e) ?? t('request.error'));
    }
  };

  const codesSaved = () => {
    setRecoveryCodes(null);
    void queryClient.invalidateQueries({ queryKey: accountKeys.secondFactor });
  };

  return (
    <Card
      title={
        <span>
          <SafetyOutlined /> {t('account.secondFactor')}
        </span>
      }
      data-testid="account-second-factor"
    >
      {state?.exempt ? <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('account.secondFactor.exempt')} /> : null}
      {recoveryCodes !== null ? (
        <Space direction="vertical" size="middle">
          <RecoveryCodes codes={recoveryCodes} />
          <Button type="primary" onClick={codesSaved} data-testid="account-second-factor-codes-saved">
            {t('account.secondFactor.codesSaved')}
          </Button>
        </Space>
      ) : enrolment !== null ? (
        <Space direction="vertical" size="middle" data-testid="account-second-factor-enrol">
          <Typography.Text>{t('account.secondFactor.enrol.text')}</Typography.Text>
          <img src={enrolment.qrCode} width={180} height={180} alt={t('secondFactor.qrAlt')} style={{ imageRendering: 'pixelated' }} />
          <Typography.Text>
            {t('secondFactor.secretLabel')}{' '}
            <Typography.Text code copyable data-testid="account-second-factor-secret">
              {enrolment.secret}
            </Typography.Text>
          </Typography.Text>
          <Space.Compact>
            <Input
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              count={charLimit(6)}
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder={t('login.secondFactor.code.placeholder')}
              aria-label={t('account.secondFactor.code')}
              onPressEnter={() => void finish()}
              status={error ? 'error' : undefined}
              data-testid="account-second-factor-code"
              style={{ width: 160 }}
            />
            <Button
              type="primary"
              loading={confirm.isPending}
              disabled={code.length !== 6}
              onClick={() => void finish()}
              data-testid="account-second-factor-confirm"
            >
              {t('account.secondFactor.confirm')}
            </Button>
          </Space.Compact>
          {error ? <Typography.Text type="danger">{error}</Typography.Text> : null}
          <Button onClick={() => setEnrolment(null)}>{t('common.cancel')}</Button>
        </Space>
      ) : state === undefined ? null : state.enabled ? (
        <Space direction="vertical" size="middle">
          <Typography.Text data-testid="account-second-factor-on">
            {t('account.secondFactor.on', { date: formatDate(state.enabledTime, 'day'), count: state.recoveryCodesLeft })}
          </Typography.Text>
          {state.required ? (
            <Typography.Text type="secondary">{t('account.secondFactor.required')}</Typography.Text>
          ) : (
            <Button danger onClick={() => setDisabling(true)} data-testid="account-second-factor-disable">
              {t('account.secondFactor.disable')}
            </Button>
          )}
        </Space>
      ) : (
        <Space direction="vertical" size="middle">
          <Typography.Text data-testid="account-second-factor-off">{t('account.secondFactor.off')}</Typography.Text>
          <Button type="primary" loading={start.isPending} onClick={() => void begin()} data-testid="account-second-factor-enable">
            {t('account.secondFactor.enable')}
          </Button>
        </Space>
      )}
      <Modal
        open={disabling}
        title={t('account.secondFactor.disable')}
        okText={t('account.secondFactor.disable')}
        okButtonProps={{ danger: true, disabled: proof.trim() === '', loading: disable.isPending }}
        cancelText={t('common.cancel')}
        onOk={() => void turnOff()}
        onCancel={() => {
          setDisabling(false);
          setProof('');
          setError(null);
        }}
        destroyOnHidden
      >
        <p>{t('account.secondFactor.disable.text')}</p>
        <Input
          value={proof}
          onChange={(e) => setProof(e.target.value)}
          count={charLimit(24)}
          autoComplete="one-time-code"
          placeholder={t('account.secondFactor.codeOrRecovery')}
          aria-label={t('account.secondFactor.codeOrRecovery')}
          status={error ? 'error' : undefined}
          data-testid="account-second-factor-disable-code"
        />
        {error ? (
          <Typography.Text type="danger" style={{ display: 'block', marginTop: 8 }}>
            {error}
          </Typography.Text>
        ) : null}
      </Modal>
    </Card>
  );
}
