import { Badge, Button, Segmented, Tag } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import type { MessageItem } from '@clearplay/contract';
import { MESSAGE_KINDS, type MessageKind } from '@clearplay/contract/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SearchTable, type SearchTableColumn } from '../../components/SearchTable/index.ts';
import { formatDate } from '../../lib/date.ts';
import { getMessages, messageKeys, useMarkRead, useUnreadCounts } from './api/messages.ts';
import { AnnouncementReading, useOpenMessage } from './components/MessageBell.tsx';
import { fromNow } from './components/relative-time.ts';
import './messages.css';

const isKind = (value: string | null): value is MessageKind => (MESSAGE_KINDS as readonly (string | null)[]).includes(value);

/**
 * Every message of the signed-in user ("view more" of the message box): the house table,
 * filtered by kind (`?type=`, the popover's tab) and read state, with batch mark-read.
 */
export default function MessagePage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const typeParam = search.get('type');
  const kind = isKind(typeParam) ? typeParam : undefined;
  const counts = useUnreadCounts();
  const markRead = useMarkRead();
  const [reading, setReading] = useState<number | null>(null);
  const open = useOpenMessage({ read: setReading });

  const columns: SearchTableColumn<MessageItem>[] = [
    {
      key: 'read',
      title: t('messages.field.read'),
      width: 110,
      search: {
        type: 'select',
        showSearch: false,
        options: [
          { value: 'unread', label: t('messages.read.unread') },
          { value: 'read', label: t('messages.read.read') },
          { value: 'all', label: t('messages.read.all') },
        ],
      },
      render: (_, m) => (
        <Badge status={m.read ? 'default' : 'processing'} text={m.read ? t('messages.read.read') : t('messages.read.unread')} />
      ),
    },
    { key: 'type', title: t('messages.field.type'), width: 100, render: (_, m) => <Tag>{t(`messages.kind.${m.type}`)}</Tag> },
    {
      key: 'title',
      title: t('messages.field.title'),
      width: 240,
      ellipsis: true,
      render: (_, m) => (
        <Button type="link" size="small" className="message-link" onClick={() => open(m)} data-testid={`message-open-${m.id}`}>
          {m.title}
        </Button>
      ),
    },
    {
      key: 'content',
      title: t('messages.field.content'),
      ellipsis: true,
      render: (_, m) => (
        <>
          {m.doneTime !== null ? <Tag color="success">{t('messages.done')}</Tag> : null}
          {m.content}
        </>
      ),
    },
    {
      key: 'createdTime',
      title: t('messages.field.createdTime'),
      width: 190,
      render: (_, m) => (
        <span title={formatDate(m.createdTime)}>
          {fromNow(m.createdTime)} · {formatDate(m.createdTime, 'minute')}
        </span>
      ),
    },
  ];

  const kindOptions = [
    { value: 'all', label: t('messages.kind.all') },
    ...MESSAGE_KINDS.map((k) => ({
      value: k,
      label: counts[k] > 0 ? `${t(`messages.kind.${k}`)} (${counts[k]})` : t(`messages.kind.${k}`),
    })),
  ];

  return (
    <>
      <PageHeader description={t('messages.page.description')} />
      <SearchTable<MessageItem>
        tableId="user-message"
        rowKey="id"
        columns={columns}
        queryKey={[...messageKeys.lists, 'table']}
        params={kind === undefined ? {} : { type: kind }}
        fetcher={(params, signal) => getMessages(params, signal)}
        title={
          <Segmented
            value={kind ?? 'all'}
            options={kindOptions}
            onChange={(value) => setSearch(value === 'all' ? {} : { type: String(value) }, { replace: true })}
            data-testid="message-kind-filter"
          />
        }
        selectable={{ disabled: (m) => m.read }}
        toolbar={({ selectedRowKeys, clearSelection }) => (
          <Button
            icon={<CheckOutlined />}
            disabled={selectedRowKeys.length === 0}
            loading={markRead.isPending}
            onClick={() => markRead.mutate(selectedRowKeys.map(Number), { onSuccess: clearSelection })}
            data-testid="message-batch-read"
          >
            {t('messages.markRead', { count: selectedRowKeys.length })}
          </Button>
        )}
        scrollX={900}
        data-testid="message-table"
      />
      <AnnouncementReading id={reading} onClose={() => setReading(null)} />
    </>
  );
}
