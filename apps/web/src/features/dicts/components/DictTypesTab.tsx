import { useState } from 'react';
import { Button, Typography } from 'antd';
import { PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { DictTypeItem } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { DeleteButton, EditButton } from '../../../components/RowActions.tsx';
import { SearchTable, type SearchTableColumn } from '../../../components/SearchTable/index.ts';
import { Permission } from '../../../components/Permission.tsx';
import { can, useActor } from '../../../lib/permissions.ts';
import { StatusSwitch } from '../../../components/StatusSwitch.tsx';
import { dictTypeListQueryKey, getDictTypes, useDeleteDictType, useUpdateDictType } from '../api/dict-admin.ts';
import { DictTypeFormModal } from './DictTypeFormModal.tsx';
import { formatDate } from '../../../lib/date.ts';

/** The types tab: list, create, edit, status, delete, and "view data" (opens the data tab on the type). */
export function DictTypesTab({ onViewData }: { onViewData: (code: string) => void }) {
  const { t } = useTranslation();
  const actor = useActor();
  const update = useUpdateDictType();
  const remove = useDeleteDictType();
  const [form, setForm] = useState<{ open: boolean; type: DictTypeItem | null }>({ open: false, type: null });

  const columns: SearchTableColumn<DictTypeItem>[] = [
    {
      key: 'code',
      title: t('dict.type.field.code'),
      width: 180,
      search: { type: 'input' },
      render: (_, d) => (
        <Typography.Link onClick={() => onViewData(d.code)} data-testid={`dict-type-code-${d.code}`}>
          {d.code}
        </Typography.Link>
      ),
    },
    {
      key: 'name',
      title: t('dict.type.field.nameZh'),
      width: 160,
      search: { type: 'input' },
      render: (_, d) => <span data-user-data="">{d.name}</span>,
    },
    { key: 'nameEn', title: t('dict.type.field.nameEn'), width: 160, render: (_, d) => d.nameEn || '-' },
    {
      key: 'status',
      title: t('common.status'),
      width: 100,
      search: { type: 'dict', dictType: 'common_status', numeric: true },
      render: (_, d) => (
        <StatusSwitch
          status={d.status}
          disabled={!can(actor, 'dict:update')}
          successMessage={t('feedback.dictType.status.success')}
          failureMessage={t('feedback.dictType.status.failed')}
          onChange={(status) => update.mutateAsync({ id: d.id, code: d.code, name: d.name, nameEn: d.nameEn, remark: d.remark, status })}
          data-testid={`dict-type-status-${d.code}`}
        />
      ),
    },
    { key: 'remark', title: t('common.remark'), ellipsis: true, render: (_, d) => <span data-user-data="">{d.remark || '-'}</span> },
    { key: 'dataCount', title: t('dict.type.field.dataCount'), width: 100, align: 'right' },
    { key: 'createdTime', title: t('common.createdTime'), width: 180, render: (_, d) => formatDate(d.createdTime) },
    {
      key: 'actions',
      title: t('common.actions'),
      width: 240,
      fixed: 'right',
      render: (_, d) => (
        <span className="table-actions">
          <Button
            type="link"
            size="small"
            icon={<UnorderedListOutlined />}
            onClick={() => onViewData(d.code)}
            data-testid={`dict-type-view-${d.code}`}
          >
            {t('dict.type.viewData')}
          </Button>
          <EditButton onClick={() => setForm({ open: true, type: d })} permission="dict:update" testId={`dict-type-edit-${d.code}`} />
          <DeleteButton
            permission="dict:delete"
            onDelete={() => remove.mutateAsync(d.id)}
            successMessage={t('feedback.dictType.delete.success')}
            testId={`dict-type-delete-${d.code}`}
          />
        </span>
      ),
    },
  ];

  return (
    <>
      <SearchTable<DictTypeItem>
        tableId="system-dict-type"
        rowKey="id"
        columns={columns}
        queryKey={dictTypeListQueryKey}
        fetcher={(params, signal) => getDictTypes(params, signal)}
        loadErrorMessage={t('feedback.dictType.search.failed')}
        title={t('dict.types')}
        toolbar={() => (
          <Permission permissions={['dict:create']}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, type: null })}
              data-testid="dict-type-create"
            >
              {t('dict.type.create')}
            </Button>
          </Permission>
        )}
        data-testid="dict-type-table"
      />
      <DictTypeFormModal open={form.open} type={form.type} onClose={() => setForm({ open: false, type: null })} />
    </>
  );
}
