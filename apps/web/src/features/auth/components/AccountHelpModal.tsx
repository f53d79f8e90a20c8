import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * "Forgot password" and "Register": this back office has no self-service sign-up or
 * password reset; the service's administrator opens accounts and resets passwords.
 */
export default function AccountHelpModal({ kind, onClose }: { kind: 'forgetPassword' | 'register'; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t(kind === 'register' ? 'login.help.register.title' : 'login.help.forgetPassword.title')}
      onOk={onClose}
      onCancel={onClose}
      okText={t('login.help.ok')}
      cancelButtonProps={{ style: { display: 'none' } }}
    >
      <p>{t('login.help.content')}</p>
    </Modal>
  );
}
