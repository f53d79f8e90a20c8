import { useState } from 'react';
import { App, Button, Tooltip } from 'antd';
import { DeleteOutlined, DownloadOutlined, EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import type { OrderExportQuery, OrderItem, OrderListQuery } from '@clearplay/contract';
import { ORDER_DICTS, TRACKED_EVENTS, USER_SEARCH_PERMISSIONS } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useConfirmDelete } from '../../components/confirm.ts';
import { DictTag, DictText } from '../../components/DictTag.tsx';
import { Money } from '../../components/Money.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { DeleteButton } from '../../components/RowActions.tsx';
import { SearchTable, type SearchTableColumn } from '../../components/SearchTable/index.ts';
import { downloadOrder, getOrders, orderKeys, useDeleteOrders } from './api/orders.ts';
import { ExportButton } from './components/ExportButton.tsx';
import { ImportButton } from './components/ImportButton.tsx';
import { LedgerButton } from '../ledger/index.ts';
import { trackEvent } from '../tracking/index.ts';
import { OrderDetailModal } from './components/OrderDetailModal.tsx';
import { OrderFormModal } from './components/OrderFormModal.tsx';
import { formatOrderTime } from './format.ts';
import { RepeatTargetMark } from './components/TargetHistoryPanel.tsx';
import { can, canAny, useActor } from '../../lib/permissions.ts';
import { canEditOrder, inspectDescription } from './permissions.ts';

/** Filters a link may set through the URL (the workplace's pending card: ?result=3). */
const INSPECT_URL_FILTERS = { result: 'number' } as const;

/**
 * Order inspect: the detection records with a
 * collapsible search form, server-side sorting by time and amount, create / import / export /
 * batch delete, and per row details, edit, the evidence ZIP and delete. Every action shows
 * only to users holding its permission; the server checks each call again.
 */
export default function InspectPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const actor = useActor();
  const confirmDelete = useConfirmDelete();
  const remove = useDeleteOrders();

  const [detail, setDetail] = useState<number | null>(null);
  // `?detail=<id>` opens that order's details (a message box item leads here).
  const [search, setSearch] = useSearchParams();
  const detailFromUrl = Number(search.get('detail')) || null;
  const shownDetail = detail ?? detailFromUrl;
  const openDetail = (id: number) => {
    setDetail(id);
    trackEvent(TRACKED_EVENTS.orderDetailOpen);
  };
  const closeDetail = () => {
    setDetail(null);
    if (search.has('detail')) setSearch((next) => (next.delete('detail'), next), { replace: true });
  };
  const [form, setForm] = useState<{ open: boolean; order?: OrderItem }>({ open: false });
  const [downloading, setDownloading] = useState<number | null>(null);

  const canDelete = can(actor, 'order:delete');
  const canDownload = can(actor, 'order:download');
  // The user pickers search users: a shop may not, and sees its own orders anyway.
  const canPickUsers = canAny(actor, USER_SEARCH_PERMISSIONS);

  const download = async (order: OrderItem) => {
    setDownloading(order.id);
    try {
      const name = await downloadOrder(order.id);
      void message.success(t('order.download.success', { name }));
    } catch {
      // the API client already showed why
    } finally {
      setDownloading(null);
    }
  };

  /** A coded field: searched by its dictionary, shown as its dictionary tag. */
  const codedColumn = (key: 'result' | 'ifPublic' | 'ifChangedMac', width: number): SearchTableColumn<OrderItem> => ({
    key,
    title: t(`order.field.${key}`),
    width,
    search: { type: 'dict', dictType: ORDER_DICTS[key], numeric: true },
    render: (_, o) => <DictTag type={ORDER_DICTS[key]} value={o[key]} />,
  });

  const columns: SearchTableColumn<OrderItem>[] = [
    {
      key: 'code',
      title: t('order.field.code'),
      fixed: 'left',
      width: 110,
      // The order's profile page.
      render: (_, o) => (
        <Link to={`/profile/order/${o.id}`} data-testid={`order-profile-link-${o.code}`}>
          {o.code}
        </Link>
      ),
    },
    {
      key: 'objWechat',
      title: t('order.field.objWechat'),
      // No ellipsis: the chat ID is what a record is known by, and one word; the column grows
      // to the longest on the page (decision 0090).
      width: 160,
      search: { type: 'input' },
      render: (_, o) => <RepeatTargetMark order={o} />,
    },
    { key: 'objWechatName', title: t('order.field.objWechatName'), width: 130, ellipsis: true, search: { type: 'input' } },
    {
      key: 'gameName',
      title: t('order.field.gameName'),
      width: 120,
      ellipsis: true,
      search: { type: 'dict', dictType: ORDER_DICTS.game },
      render: (_, o) => <DictText type={ORDER_DICTS.game} value={o.gameName} />,
    },
    { key: 'mac', title: t('order.field.mac'), width: 170, search: { type: 'input' } },
    {
      key: 'installationTime',
      title: t('order.field.installationTime'),
      width: 150,
      render: (_, o) => formatOrderTime(o.installationTime),
    },
    codedColumn('result', 100),
    {
      key: 'userName',
      title: t('order.field.userName'),
      width: 130,
      ellipsis: true,
      searchLabel: t('order.field.userId'),
      search: canPickUsers ? { type: 'user', name: 'userId', roleName: 'shop' } : undefined,
      render: (_, o) => o.userName ?? '—',
    },
    { key: 'objClientName', title: t('order.field.objClientName'), width: 140, ellipsis: true, search: { type: 'input' } },
    {
      key: 'inspectorName',
      title: t('order.field.inspectorName'),
      width: 120,
      ellipsis: true,
      searchLabel: t('order.field.inspectorId'),
      search: canPickUsers ? { type: 'user', name: 'inspectorId', roleName: 'inspector' } : undefined,
      render: (_, o) => o.inspectorName ?? '—',
    },
    {
      key: 'amount',
      title: t('order.field.amount'),
      width: 110,
      align: 'right',
      sortParam: 'amount',
      render: (_, o) => (o.amount === null ? '—' : <Money fen={o.amount} />),
    },
    codedColumn('ifPublic', 100),
    codedColumn('ifChangedMac', 120),
    {
      key: 'repeatOnly',
      title: t('history.repeatOnly'),
      hideInTable: true,
      search: { type: 'select', options: [{ label: t('common.yes'), value: 1 }], showSearch: false },
    },
    // The code is searched near the end of the form: the first row holds the usual filters.
    { key: 'codeSearch', title: t('order.field.code'), hideInTable: true, search: { type: 'input', name: 'code' } },
    {
      key: 'createdTime',
      title: t('order.field.createdTime'),
      width: 160,
      search: { type: 'dateRange', names: ['orderStartTime', 'orderEndTime'] },
      sortParam: 'createdTime',
      render: (_, o) => formatOrderTime(o.createdTime),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      fixed: 'right',
      // details, plus edit / download / delete when held
      width: 24 + 84 * (1 + [can(actor, 'order:update'), canDownload, canDelete].filter(Boolean).length),
      render: (_, o) => (
        <span className="table-actions">
          <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => openDetail(o.id)} data-testid={`order-detail-${o.code}`}>
            {t('order.detail')}
          </Button>
          {can(actor, 'order:update') ? (
            <Tooltip title={canEditOrder(actor, o) ? undefined : t('order.edit.notOwn')}>
              <Button
                type="link"
                size="small"
                icon={<EditOutlined />}
                disabled={!canEditOrder(actor, o)}
                onClick={() => setForm({ open: true, order: o })}
                data-testid={`order-edit-${o.code}`}
              >
                {t('common.edit')}
              </Button>
            </Tooltip>
          ) : null}
          {canDownload ? (
            <Button
              type="link"
              size="small"
              icon={<DownloadOutlined />}
              loading={downloading === o.id}
              onClick={() => void download(o)}
              data-testid={`order-download-${o.code}`}
            >
              {t('order.download')}
            </Button>
          ) : null}
          {canDelete ? <DeleteButton onDelete={() => remove.mutateAsync([o.id])} testId={`order-delete-${o.code}`} /> : null}
        </span>
      ),
    },
  ];

  return (
    <>
      <PageHeader description={inspectDescription(actor, t, i18n.language)} />
      <SearchTable<OrderItem>
        urlFilters={INSPECT_URL_FILTERS}
        tableId="order-inspect"
        rowKey="id"
        columns={columns}
        queryKey={orderKeys.lists()}
        fetcher={(params, signal) => getOrders(params as OrderListQuery, signal)}
        selectable={canDelete}
        scrollX={2050}
        title={t('order.list')}
        toolbar={({ params, selectedRowKeys, clearSelection }) => (
          <>
            {can(actor, 'order:create') ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ open: true })} data-testid="order-create">
                {t('order.create')}
              </Button>
            ) : null}
            <ImportButton />
            <ExportButton filters={params as OrderExportQuery} />
            <LedgerButton />
            {canDelete ? (
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={selectedRowKeys.length === 0}
                onClick={() =>
                  confirmDelete(
                    async () => {
                      await remove.mutateAsync(selectedRowKeys.map(Number));
                      clearSelection();
                      void message.success(t('feedback.delete.success'));
                    },
                    { batch: true },
                  )
                }
                data-testid="order-batch-delete"
              >
                {t('order.batchDelete')}
              </Button>
            ) : null}
          </>
        )}
        data-testid="order-table"
      />
      <OrderDetailModal id={shownDetail} onClose={closeDetail} onDownload={canDownload ? (o) => void download(o) : undefined} />
      <OrderFormModal
        open={form.open}
        order={form.order}
        onClose={() => setForm({ open: false })}
        onSaved={() => setForm({ open: false })}
      />
    </>
  );
}
