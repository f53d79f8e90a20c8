import { useState } from 'react';
import { Button, Card, Empty, Select, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { DictDataItem, DictDataNode } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { DeleteButton, EditButton } from '../../../components/RowActions.tsx';
import { ListClassTag } from '../../../components/DictTag.tsx';
import { SearchTable, type SearchTableColumn } from '../../../components/SearchTable/index.ts';
import { Permission } from '../../../components/Permission.tsx';
import { can, useActor } from '../../../lib/permissions.ts';
import { StatusSwitch } from '../../../components/StatusSwitch.tsx';
import {
  dictDataListQueryKey,
  getDictData,
  useDeleteDictData,
  useDictDataTree,
  useDictTypeOptions,
  useUpdateDictData,
  type ListClass,
} from '../api/dict-admin.ts';
import { DictDataFormModal } from './DictDataFormModal.tsx';
import { formatDate } from '../../../lib/date.ts';
import { useDictLabel } from '../../../lib/dicts.ts';

function labelsById(
  nodes: readonly DictDataNode[],
  label: (e: DictDataNode) => string,
  into = new Map<number, string>(),
): Map<number, string> {
  for (const node of nodes) {
    into.set(node.id, label(node));
    if (node.children) labelsById(node.children, label, into);
  }
  return into;
}

/** The data tab: the entries of one type (chosen above the table, or by a type's "view data"). */
export function DictDataTab({ typeCode, onTypeChange }: { typeCode: string | null; onTypeChange: (code: string) => void }) {
  const { t } = useTranslation();
  const actor = useActor();
  const types = useDictTypeOptions();
  const tree = useDictDataTree(typeCode);
  const update = useUpdateDictData();
  const remove = useDeleteDictData();
  const [form, setForm] = useState<{ open: boolean; entry: DictDataItem | null }>({ open: false, entry: null });
  const label = useDictLabel();
  const parents = labelsById(tree.data ?? [], label);
  const current = types.data?.find((type) => type.code === typeCode);

  const columns: SearchTableColumn<DictDataItem>[] = [
    {
      key: 'label',
      title: t('dict.data.field.labelZh'),
      width: 180,
      search: { type: 'input' },
      render: (_, d) => (
        <span data-user-data="">
          <ListClassTag label={d.label} listClass={d.listClass} className={d.cssClass} />
        </span>
      ),
    },
    {
      key: 'labelEn',
      title: t('dict.data.field.labelEn'),
      width: 180,
      render: (_, d) => (d.labelEn ? <ListClassTag label={d.labelEn} listClass={d.listClass} className={d.cssClass} /> : '-'),
    },
    {
      key: 'value',
      title: t('dict.data.field.value'),
      width: 200,
      ellipsis: true,
      render: (_, d) => <code data-user-data="">{d.value}</code>,
    },
    { key: 'sort', title: t('dict.data.field.sort'), width: 80, align: 'right' },
    {
      key: 'listClass',
      title: t('dict.data.field.listClass'),
      width: 110,
      render: (_, d) => <ListClassTag label={d.listClass || 'default'} listClass={d.listClass} />,
    },
    { key: 'cssClass', title: t('dict.data.field.cssClass'), width: 110, defaultHidden: true, render: (_, d) => d.cssClass || '-' },
    {
      key: 'isDefault',
      title: t('dict.data.field.isDefault'),
      width: 90,
      render: (_, d) => (d.isDefault ? <Tag color="processing">{t('common.yes')}</Tag> : <Tag>{t('common.no')}</Tag>),
    },
    {
      key: 'parentId',
      title: t('dict.data.field.parent'),
      width: 130,
      render: (_, d) => (d.parentId === null ? '-' : (parents.get(d.parentId) ?? `#${d.parentId}`)),
    },
    {
      key: 'status',
      title: t('common.status'),
      width: 100,
      search: { type: 'dict', dictType: 'common_status', numeric: true },
      render: (_, d) => (
        <StatusSwitch
          status={d.status}
          disabled={!can(actor, 'dict:update')}
          successMessage={t('feedback.dictData.status.success')}
          failureMessage={t('feedback.dictData.status.failed')}
          onChange={(status) =>
            update.mutateAsync({
              id: d.id,
              typeCode: d.typeCode,
              label: d.label,
              labelEn: d.labelEn,
              value: d.value,
              sort: d.sort,
              cssClass: d.cssClass,
              listClass: d.listClass as ListClass,
              isDefault: d.isDefault,
              parentId: d.parentId,
              remark: d.remark,
              remarkEn: d.remarkEn,
              status,
            })
          }
          data-testid={`dict-data-status-${d.value}`}
        />
      ),
    },
    { key: 'remark', title: t('common.remark'), ellipsis: true, render: (_, d) => <span data-user-data="">{d.remark || '-'}</span> },
    {
      key: 'remarkEn',
      title: t('dict.data.field.remarkEn'),
      ellipsis: true,
      defaultHidden: true,
      render: (_, d) => <span data-user-data="">{d.remarkEn || '-'}</span>,
    },
    { key: 'createdTime', title: t('common.createdTime'), width: 170, defaultHidden: true, render: (_, d) => formatDate(d.createdTime) },
    {
      key: 'actions',
      title: t('common.actions'),
      width: 160,
      fixed: 'right',
      render: (_, d) => (
        <span className="table-actions">
          <EditButton onClick={() => setForm({ open: true, entry: d })} permission="dict:update" testId={`dict-data-edit-${d.value}`} />
          <DeleteButton
            permission="dict:delete"
            onDelete={() => remove.mutateAsync(d.id)}
            successMessage={t('feedback.dictData.delete.success')}
            testId={`dict-data-delete-${d.value}`}
          />
        </span>
      ),
    },
  ];

  const typeSelect = (
    <Space>
      <span>{t('dict.data.field.type')}</span>
      <Select
        style={{ width: 280 }}
        value={typeCode ?? undefined}
        placeholder={t('dict.data.chooseType')}
        loading={types.isLoading}
        showSearch={{ optionFilterProp: 'label' }}
        onChange={onTypeChange}
        options={(types.data ?? []).map((type) => ({
          value: type.code,
          label: `${label({ label: type.name, labelEn: type.nameEn })} (${type.code})`,
        }))}
        data-testid="dict-data-type"
      />
    </Space>
  );

  return (
    <>
      {typeCode ? (
        <SearchTable<DictDataItem>
          // A new type starts with a fresh search form and page 1.
          key={typeCode}
          tableId="system-dict-data"
          rowKey="id"
          columns={columns}
          queryKey={dictDataListQueryKey(typeCode)}
          fetcher={(params, signal) => getDictData(typeCode, params, signal)}
          loadErrorMessage={t('feedback.dictData.search.failed')}
          title={
            <Space size={12}>
              {typeSelect}
              {current && current.status !== 1 ? <Tag color="error">{t('dict.type.disabledHint')}</Tag> : null}
            </Space>
          }
          toolbar={() => (
            <Permission permissions={['dict:create']}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setForm({ open: true, entry: null })}
                data-testid="dict-data-create"
              >
                {t('dict.data.create')}
              </Button>
            </Permission>
          )}
          data-testid="dict-data-table"
        />
      ) : (
        <Card variant="borderless">
          {typeSelect}
          <Empty style={{ margin: '48px 0' }} description={t('dict.data.chooseTypeHint')} />
        </Card>
      )}
      <DictDataFormModal
        open={form.open}
        entry={form.entry}
        typeCode={typeCode ?? ''}
        types={types.data ?? []}
        onClose={() => setForm({ open: false, entry: null })}
      />
    </>
  );
}
