import { Form, Radio } from 'antd';
import type { CurrentUser } from '@clearplay/contract';
import { VIEW_AS_ROLES, type ViewAsRole } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal.tsx';
import { UserSelect } from '../../../components/UserSelect.tsx';
import { startViewAs } from '../api/view-as.ts';

interface Values {
  role: ViewAsRole;
  userId?: number;
}

export interface ViewAsModalProps {
  open: boolean;
  onClose: () => void;
  /** The session as it now is (the viewed role and account). */
  onSwitched: (user: CurrentUser) => void;
}

/** Switch roles: the super admin picks a role and, for a shop, the shop account to view as. */
export function ViewAsModal({ open, onClose, onSwitched }: ViewAsModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const role = Form.useWatch('role', form);
  const shopLabel = t('viewAs.field.shop');
  return (
    <FormModal<Values, CurrentUser>
      open={open}
      form={form}
      title={t('viewAs.title')}
      initialValues={{ role: 'shop' }}
      onClose={onClose}
      onSubmit={(values) => startViewAs(values.role === 'shop' ? { role: 'shop', userId: values.userId } : { role: values.role })}
      onSuccess={(user) => onSwitched(user)}
      okText={t('viewAs.submit')}
      data-testid="view-as-form"
    >
      <Form.Item name="role" label={t('viewAs.field.role')} extra={t('viewAs.help')} rules={[{ required: true }]}>
        <Radio.Group
          data-testid="view-as-role"
          optionType="button"
          options={VIEW_AS_ROLES.map((r) => ({ value: r, label: <span data-testid={`view-as-role-${r}`}>{t(`viewAs.role.${r}`)}</span> }))}
        />
      </Form.Item>
      {role === 'shop' ? (
        <Form.Item name="userId" label={shopLabel} rules={[{ required: true, message: t('form.required', { label: shopLabel }) }]}>
          <UserSelect roleName="shop" placeholder={t('viewAs.shopPlaceholder')} data-testid="view-as-shop" />
        </Form.Item>
      ) : null}
    </FormModal>
  );
}
