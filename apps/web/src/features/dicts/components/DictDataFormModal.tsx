import { Form, Input, InputNumber, Radio, Select, Switch, TreeSelect } from 'antd';
import type { DictDataItem, DictDataNode, DictTypeItem } from '@clearplay/contract';
import { LIST_CLASSES } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { ListClassTag } from '../../../components/DictTag.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { useCreateDictData, useDictDataTree, useUpdateDictData } from '../api/dict-admin.ts';
import { dictLabel, useDictLabel } from '../../../lib/dicts.ts';
import { charLimit } from '../../../lib/char-limit.ts';

interface Values {
  typeCode: string;
  label: string;
  labelEn?: string;
  value: string;
  sort?: number;
  listClass: (typeof LIST_CLASSES)[number];
  cssClass?: string;
  isDefault: boolean;
  parentId?: number | null;
  status: 0 | 1;
  remark?: string;
  remarkEn?: string;
}

interface ParentOption {
  value: number;
  title: string;
  disabled?: boolean;
  children?: ParentOption[];
}

/** The type's entries as parent options; an entry and its descendants cannot be its own parent. */
function parentOptions(nodes: readonly DictDataNode[], self: number | null, locale: string, blocked = false): ParentOption[] {
  return nodes.map((node) => {
    const isBlocked = blocked || node.id === self;
    return {
      value: node.id,
      title: `${dictLabel(node, locale)} (${node.value})`,
      disabled: isBlocked,
      children: node.children?.length ? parentOptions(node.children, self, locale, isBlocked) : undefined,
    };
  });
}

/** Create or edit a dictionary entry (type, label and value required). */
export function DictDataFormModal({
  open,
  entry,
  typeCode,
  types,
  onClose,
}: {
  open: boolean;
  entry: DictDataItem | null;
  /** The type a new entry belongs to. */
  typeCode: string;
  types: readonly DictTypeItem[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const label = useDictLabel();
  const create = useCreateDictData();
  const update = useUpdateDictData();
  const [form] = Form.useForm<Values>();
  const chosenType = Form.useWatch('typeCode', form) ?? entry?.typeCode ?? typeCode;
  const tree = useDictDataTree(open ? chosenType : null);
  const editing = entry !== null;

  const submit = (values: Values) => {
    const body = {
      typeCode: values.typeCode,
      label: values.label.trim(),
      labelEn: values.labelEn?.trim() ?? '',
      value: values.value.trim(),
      sort: values.sort ?? 0,
      listClass: values.listClass,
      cssClass: values.cssClass?.trim() ?? '',
      isDefault: values.isDefault,
      parentId: values.parentId ?? null,
      status: values.status,
      remark: values.remark?.trim() ?? '',
      remarkEn: values.remarkEn?.trim() ?? '',
    };
    return editing ? update.mutateAsync({ id: entry.id, ...body }) : create.mutateAsync(body);
  };

  const required = (label: string) => ({ required: true, whitespace: true, message: t('form.required', { label }) });

  return (
    <FormModal<Values>
      open={open}
      form={form}
      title={editing ? t('dict.data.edit.title', { name: label(entry) }) : t('dict.data.create.title')}
      onClose={onClose}
      onSubmit={submit}
      successMessage={editing ? t('feedback.dictData.update.success') : t('feedback.dictData.create.success')}
      initialValues={
        entry
          ? {
              typeCode: entry.typeCode,
              label: entry.label,
              labelEn: entry.labelEn,
              value: entry.value,
              sort: entry.sort,
              listClass: (LIST_CLASSES as readonly string[]).includes(entry.listClass)
                ? (entry.listClass as Values['listClass'])
                : 'default',
              cssClass: entry.cssClass,
              isDefault: entry.isDefault,
              parentId: entry.parentId,
              status: entry.status === 1 ? 1 : 0,
              remark: entry.remark,
              remarkEn: entry.remarkEn,
            }
          : { typeCode, sort: 0, listClass: 'default', isDefault: false, status: 1, parentId: null }
      }
      width={640}
      labelSpan={5}
      data-testid="dict-data-form"
    >
      <Form.Item
        name="typeCode"
        label={t('dict.data.field.type')}
        rules={[{ required: true, message: t('form.required', { label: t('dict.data.field.type') }) }]}
      >
        <Select
          disabled={editing}
          showSearch={{ optionFilterProp: 'label' }}
          options={types.map((type) => ({
            value: type.code,
            label: `${label({ label: type.name, labelEn: type.nameEn })} (${type.code})`,
          }))}
          onChange={() => form.setFieldValue('parentId', null)}
        />
      </Form.Item>
      <Form.Item name="label" label={t('dict.data.field.labelZh')} rules={[required(t('dict.data.field.labelZh')), { max: 100 }]}>
        <Input count={charLimit(100)} data-testid="dict-data-form-label" />
      </Form.Item>
      <Form.Item name="labelEn" label={t('dict.data.field.labelEn')} extra={t('dict.data.field.labelEn.help')} rules={[{ max: 100 }]}>
        <Input count={charLimit(100)} data-testid="dict-data-form-label-en" />
      </Form.Item>
      <Form.Item name="value" label={t('dict.data.field.value')} rules={[required(t('dict.data.field.value')), { max: 500 }]}>
        <Input count={charLimit(500)} data-testid="dict-data-form-value" />
      </Form.Item>
      <Form.Item name="parentId" label={t('dict.data.field.parent')} extra={t('dict.data.field.parent.help')}>
        <TreeSelect
          allowClear
          treeDefaultExpandAll
          loading={tree.isFetching}
          placeholder={t('dict.data.field.parent.none')}
          treeData={parentOptions(tree.data ?? [], entry?.id ?? null, i18n.language)}
        />
      </Form.Item>
      <Form.Item name="sort" label={t('dict.data.field.sort')}>
        <InputNumber<number> min={0} max={99999} precision={0} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="listClass" label={t('dict.data.field.listClass')} extra={t('dict.data.field.listClass.help')}>
        <Select options={LIST_CLASSES.map((c) => ({ value: c, label: <ListClassTag label={t(`dict.listClass.${c}`)} listClass={c} /> }))} />
      </Form.Item>
      <Form.Item name="cssClass" label={t('dict.data.field.cssClass')}>
        <Input count={charLimit(100)} />
      </Form.Item>
      <Form.Item name="isDefault" label={t('dict.data.field.isDefault')} valuePropName="checked">
        <Switch checkedChildren={t('common.yes')} unCheckedChildren={t('common.no')} />
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
      <Form.Item name="remark" label={t('dict.data.field.remarkZh')} rules={[{ max: 500 }]}>
        <Input.TextArea count={charLimit(500)} rows={2} data-testid="dict-data-form-remark" />
      </Form.Item>
      <Form.Item name="remarkEn" label={t('dict.data.field.remarkEn')} extra={t('dict.data.field.remarkEn.help')} rules={[{ max: 500 }]}>
        <Input.TextArea count={charLimit(500)} rows={2} data-testid="dict-data-form-remark-en" />
      </Form.Item>
    </FormModal>
  );
}
