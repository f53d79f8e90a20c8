import { useState } from 'react';
import { App, Switch } from 'antd';
import { useTranslation } from 'react-i18next';

export interface StatusSwitchProps {
  /** 1 enabled, 0 disabled. */
  status: number;
  /** Sets the new status on the server; a rejection means it did not change. */
  onChange: (next: 0 | 1) => Promise<unknown>;
  /** Spec §8 feedback; default: the generic "status set" messages. */
  successMessage?: string;
  failureMessage?: string;
  disabled?: boolean;
  /** Why it is disabled (shown as the title). */
  disabledReason?: string;
  'data-testid'?: string;
  /**
   * Asks before the change when given: the dialog's title, text and OK button for the new
   * status. Cancel leaves the status as it was and sends nothing.
   */
  confirm?: (next: 0 | 1) => { title: string; content?: string; okText?: string };
}

/**
 * The enable/disable toggle: calls the server, shows the success or failure
 * message, and spins while the call runs. The value follows the row once the list reloads.
 */
export function StatusSwitch({
  status,
  onChange,
  successMessage,
  failureMessage,
  disabled,
  disabledReason,
  'data-testid': testId,
  confirm,
}: StatusSwitchProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [pending, setPending] = useState<0 | 1 | null>(null);
  const checked = pending === null ? status === 1 : pending === 1;

  const confirmed = (next: 0 | 1) =>
    new Promise<boolean>((resolve) => {
      if (confirm === undefined) {
        resolve(true);
        return;
      }
      const { title, content, okText } = confirm(next);
      modal.confirm({
        title,
        content,
        okText,
        cancelText: t('common.cancel'),
        okButtonProps: next === 0 ? { danger: true } : undefined,
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    });

  const toggle = async (on: boolean) => {
    const next = on ? 1 : 0;
    if (!(await confirmed(next))) return;
    setPending(next);
    try {
      await onChange(next);
      void message.success(successMessage ?? t('feedback.status.success'));
    } catch {
      void message.error(failureMessage ?? t('feedback.status.failed'));
    } finally {
      setPending(null);
    }
  };

  return (
    <Switch
      size="small"
      checked={checked}
      loading={pending !== null}
      disabled={disabled}
      title={disabled ? disabledReason : undefined}
      checkedChildren={t('common.enabled')}
      unCheckedChildren={t('common.disabled')}
      onChange={(on) => void toggle(on)}
      data-testid={testId}
      aria-label={checked ? t('common.enabled') : t('common.disabled')}
    />
  );
}
