import { Form, Input, Radio } from 'antd';
import type { DictTypeItem } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal.tsx';
import { useCreateDictType, useUpdateDictType } from '../api/dict-admin.ts';
import { useDictLabel } from '../../../lib/dicts.ts';
import { charLimit } from '../../../lib/char-limit.ts';

interface Values {
  code: string;
  name: string;
  nameEn?: string;
  status: 0 | 1;
  remark?: string;
}

/** Create or edit a dictionary type (code and name required). */
export function DictTypeFormModal({ open, type, onClose }: { open: boolean; type: DictTypeItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const label = useDictLabel();
  const create = useCreateDictType();
  const update = useUpdateDictType();
  const editing = type !== null;
  const submit = (values: Values) => {
    const body = {
      code: values.code.trim(),
      name: values.name.trim(),
      nameEn: values.nameEn?.trim() ?? '',
      status: values.status,
      remark: values.remark?.trim() ?? '',
    };
    return editing ? update.mutateAsync({ id: type.id, ...body }) : create.mutateAsync(body);
  };
  return (
    <FormModal<Values>
      open={open}
      title={editing ? t('dict.type.edit.title', { name: label({ label: type.name, labelEn: type.nameEn }) }) : t('dict.type.create.title')}
      onClose={onClose}
      onSubmit={submit}
      successMessage={editing ? t('feedback.dictType.update.success') : t('feedback.dictType.create.success')}
      initialValues={
        type ? { code: type.code, name: type.name, nameEn: type.nameEn, status: type.status, remark: type.remark } : { status: 1 }
      }
      labelSpan={5}
      data-testid="dict-type-form"
    >
      <Form.Item
        name="code"
        label={t('dict.type.field.code')}
        extra={editing ? t('dict.type.field.code.rename') : t('dict.type.field.code.help')}
        rules={[
          { required: true, whitespace: true, message: t('form.required', { label: t('dict.type.field.code') }) },
          { max: 64 },
          { pattern: /^[A-Za-z][A-Za-z0-9_]*$/, message: t('dict.type.field.code.pattern') },
        ]}
      >
        <Input count={charLimit(64)} data-testid="dict-type-form-code" />
      </Form.Item>
      <Form.Item
        name="name"
        label={t('dict.type.field.nameZh')}
        rules={[{ required: true, whitespace: true, message: t('form.required', { label: t('dict.type.field.nameZh') }) }, { max: 64 }]}
      >
        <Input count={charLimit(64)} data-testid="dict-type-form-name" />
      </Form.Item>
      <Form.Item name="nameEn" label={t('dict.type.field.nameEn')} extra={t('dict.type.field.nameEn.help')} rules={[{ max: 64 }]}>
        <Input count={charLimit(64)} data-testid="dict-type-form-name-en" />
      </Form.Item>
      <Form.Item name="status" label={t('common.status')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 1, label: t('common.enabled') },
            { value: 0, label: t('common.disabled') },
          ]}
        />
      </Form.Item>
      <Form.Item name="remark" label={t('common.remark')}>
        <Input.TextArea count={charLimit(500)} rows={3} showCount />
      </Form.Item>
    </FormModal>
  );
}
