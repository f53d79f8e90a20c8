import { Form, Input } from 'antd';
import type { UserItem } from '@clearplay/contract';
import { PASSWORD_MAX, PASSWORD_MIN } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal.tsx';
import { useResetPassword } from '../api/users.ts';
import { charLimit } from '../../../lib/char-limit.ts';

interface Values {
  newPassword: string;
  confirm: string;
}

/** Sets a new password; the server ends the user's open sessions. */
export function ResetPasswordModal({ user, onClose }: { user: UserItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const reset = useResetPassword();
  const label = t('user.field.newPassword');
  return (
    <FormModal<Values>
      open={user !== null}
      title={t('user.resetPassword.title', { name: user?.username ?? '' })}
      onClose={onClose}
      onSubmit={(values) => reset.mutateAsync({ id: user!.id, newPassword: values.newPassword })}
      successMessage={t('feedback.password.success')}
      labelSpan={8}
      data-testid="reset-password-form"
    >
      <Form.Item
        name="newPassword"
        label={label}
        extra={t('user.resetPassword.help')}
        rules={[
          { required: true, message: t('form.required', { label }) },
          { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('form.length', { label, min: PASSWORD_MIN, max: PASSWORD_MAX }) },
        ]}
      >
        <Input.Password autoComplete="new-password" count={charLimit(PASSWORD_MAX)} data-testid="reset-password-new" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('user.field.confirmPassword')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('form.required', { label: t('user.field.confirmPassword') }) },
          ({ getFieldValue }) => ({
            validator: (_, value) =>
              !value || value === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error(t('form.passwordMismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" count={charLimit(PASSWORD_MAX)} data-testid="reset-password-confirm" />
      </Form.Item>
    </FormModal>
  );
}
