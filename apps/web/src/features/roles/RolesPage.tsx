import { useState } from 'react';
import { Button, Tag, Tooltip } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { RoleItem } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { DeleteButton, EditButton } from '../../components/RowActions.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Permission } from '../../components/Permission.tsx';
import { SearchTable, type SearchTableColumn } from '../../components/SearchTable/index.ts';
import { getRoles, roleListQueryKey, useDeleteRole } from './api/roles.ts';
import { RoleFormModal } from './components/RoleFormModal.tsx';
import { permissionLabelKey } from './permission-tree.ts';
import { roleDescription } from '../../lib/role-description.ts';
import { isPermission } from '@clearplay/contract/constants';
import { formatDate } from '../../lib/date.ts';

/** Role management: super_admin only. */
export default function RolesPage() {
  const { t, i18n } = useTranslation();
  const remove = useDeleteRole();
  const [form, setForm] = useState<{ open: boolean; role: RoleItem | null }>({ open: false, role: null });

  const columns: SearchTableColumn<RoleItem>[] = [
    {
      key: 'name',
      title: t('role.field.name'),
      width: 160,
      search: { type: 'input' },
      render: (_, r) => (
        <span>
          <strong>{r.name}</strong>
          {r.builtIn ? (
            <Tag style={{ marginInlineStart: 6 }} variant="filled">
              {t('role.builtIn')}
            </Tag>
          ) : null}
        </span>
      ),
    },
    { key: 'description', title: t('role.field.description'), ellipsis: true, render: (_, r) => roleDescription(r, i18n.language) },
    {
      key: 'isAdmin',
      title: t('role.field.isAdmin'),
      width: 120,
      search: {
        type: 'select',
        options: [
          { value: true, label: t('common.yes') },
          { value: false, label: t('common.no') },
        ],
        showSearch: false,
      },
      render: (_, r) => (r.isAdmin ? <Tag color="geekblue">{t('role.admin')}</Tag> : <Tag>{t('role.notAdmin')}</Tag>),
    },
    {
      key: 'permissions',
      title: t('role.field.permissions'),
      width: 130,
      render: (_, r) => (
        <Tooltip
          title={
            r.permissions.length
              ? r.permissions.map((p) => (isPermission(p) ? t(permissionLabelKey(p)) : p)).join('、')
              : t('role.permissions.none')
          }
        >
          <Tag color={r.permissions.length ? 'processing' : 'default'}>{t('role.permissions.count', { count: r.permissions.length })}</Tag>
        </Tooltip>
      ),
    },
    { key: 'userCount', title: t('role.field.userCount'), width: 100, align: 'right' },
    { key: 'createdTime', title: t('common.createdTime'), width: 180, render: (_, r) => formatDate(r.createdTime) },
    {
      key: 'actions',
      title: t('common.actions'),
      width: 170,
      fixed: 'right',
      render: (_, r) => {
        const reason = r.builtIn ? t('role.delete.builtIn') : r.userCount > 0 ? t('role.delete.inUse', { count: r.userCount }) : null;
        return (
          <span className="table-actions">
            <EditButton onClick={() => setForm({ open: true, role: r })} testId={`role-edit-${r.name}`} permission="role:update" />
            <DeleteButton
              onDelete={() => remove.mutateAsync(r.id)}
              disabledReason={reason}
              testId={`role-delete-${r.name}`}
              permission="role:delete"
            />
          </span>
        );
      },
    },
  ];

  return (
    <>
      <PageHeader description={t('page.role.description')} />
      <SearchTable<RoleItem>
        tableId="system-role"
        rowKey="id"
        columns={columns}
        queryKey={roleListQueryKey}
        fetcher={(params, signal) => getRoles(params, signal)}
        title={t('role.list')}
        scrollX={1000}
        toolbar={() => (
          <Permission permissions={['role:create']}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ open: true, role: null })} data-testid="role-create">
              {t('role.create')}
            </Button>
          </Permission>
        )}
        data-testid="role-table"
      />
      <RoleFormModal open={form.open} role={form.role} onClose={() => setForm({ open: false, role: null })} />
    </>
  );
}
