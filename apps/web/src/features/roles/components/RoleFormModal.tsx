import { Alert, Form, Input, Radio } from 'antd';
import type { RoleItem } from '@clearplay/contract';
import { RoleName } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal.tsx';
import { useCreateRole, useUpdateRole } from '../api/roles.ts';
import { toPermissions } from '../permission-tree.ts';
import { PermissionTreeInput } from './PermissionTreeInput.tsx';
import { charLimit } from '../../../lib/char-limit.ts';

interface Values {
  name: string;
  description: string;
  descriptionEn?: string;
  isAdmin: boolean;
  permissions: string[];
}

/** Create (role === null) or edit a role: name, description, admin flag and the permission tree. */
export function RoleFormModal({ open, role, onClose }: { open: boolean; role: RoleItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateRole();
  const update = useUpdateRole();
  const editing = role !== null;
  const superAdmin = role?.name === RoleName.SUPER_ADMIN;

  const submit = (values: Values) => {
    const body = {
      name: values.name.trim(),
      description: values.description.trim(),
      descriptionEn: values.descriptionEn?.trim() ?? '',
      isAdmin: values.isAdmin,
      permissions: toPermissions(values.permissions ?? []),
    };
    return editing ? update.mutateAsync({ id: role.id, ...body }) : create.mutateAsync(body);
  };

  return (
    <FormModal<Values>
      open={open}
      title={editing ? t('role.edit.title', { name: role.name }) : t('role.create.title')}
      onClose={onClose}
      onSubmit={submit}
      successMessage={editing ? t('feedback.update.success') : t('feedback.create.success')}
      initialValues={
        role
          ? {
              name: role.name,
              description: role.description,
              descriptionEn: role.descriptionEn,
              isAdmin: role.isAdmin,
              permissions: role.permissions,
            }
          : { isAdmin: false, permissions: [] }
      }
      width={640}
      labelSpan={5}
      data-testid="role-form"
    >
      {role?.builtIn ? (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t(superAdmin ? 'role.builtIn.superAdmin' : 'role.builtIn.hint')} />
      ) : null}
      <Form.Item
        name="name"
        label={t('role.field.name')}
        extra={t('role.field.name.help')}
        rules={[
          { required: true, whitespace: true, message: t('form.required', { label: t('role.field.name') }) },
          { min: 2, max: 32, message: t('form.length', { label: t('role.field.name'), min: 2, max: 32 }) },
          { pattern: /^[A-Za-z][A-Za-z0-9_-]*$/, message: t('role.field.name.pattern') },
        ]}
      >
        <Input count={charLimit(32)} disabled={role?.builtIn} data-testid="role-form-name" />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('role.field.description')}
        rules={[{ required: true, whitespace: true, message: t('form.required', { label: t('role.field.description') }) }, { max: 100 }]}
      >
        <Input count={charLimit(100)} showCount data-testid="role-form-description" />
      </Form.Item>
      <Form.Item
        name="descriptionEn"
        label={t('role.field.descriptionEn')}
        extra={t('role.field.descriptionEn.help')}
        rules={[{ max: 100 }]}
      >
        <Input count={charLimit(100)} showCount data-testid="role-form-description-en" />
      </Form.Item>
      <Form.Item
        name="isAdmin"
        label={t('role.field.isAdmin')}
        tooltip={t('role.field.isAdmin.help')}
        rules={[{ required: true, message: t('role.field.isAdmin.required') }]}
      >
        <Radio.Group
          disabled={role?.builtIn}
          options={[
            { value: true, label: t('common.yes') },
            { value: false, label: t('common.no') },
          ]}
        />
      </Form.Item>
      <Form.Item name="permissions" label={t('role.field.permissions')}>
        <PermissionTreeInput disabled={superAdmin} />
      </Form.Item>
    </FormModal>
  );
}
