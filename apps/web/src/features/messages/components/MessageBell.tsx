import { lazy, Suspense, useState } from 'react';
import { Badge, Button, Empty, List, Popover, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import type { MessageItem } from '@clearplay/contract';
import { MESSAGE_KINDS, type MessageKind } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { unreadIds, useMarkRead, useMessages, useUnreadCounts } from '../api/messages.ts';
import { MESSAGE_PAGE_PATH, targetPath } from '../targets.ts';
import { fromNow } from './relative-time.ts';
import '../messages.css';

const POPOVER_PAGE_SIZE = 5;

// The announcement reader is loaded when a notice is first opened (not part of the layout's load).
const AnnouncementReader = lazy(() => import('../../announcements/index.ts').then((m) => ({ default: m.AnnouncementReader })));

/** Announcement `id` (null: none) in the reader, over whatever screen is showing. */
export function AnnouncementReading({ id, onClose }: { id: number | null; onClose: () => void }) {
  if (id === null) return null;
  return (
    <Suspense fallback={null}>
      <AnnouncementReader id={id} onClose={onClose} />
    </Suspense>
  );
}

/** The tab the box opens on: the first kind with unread items, else the one last shown. */
export const firstUnreadKind = (counts: Record<MessageKind, number>, fallback: MessageKind): MessageKind =>
  MESSAGE_KINDS.find((kind) => counts[kind] > 0) ?? fallback;

/** One item: title, short content, "3 minutes ago", a dot while unread. */
export function MessageRow({ item, onOpen }: { item: MessageItem; onOpen: (item: MessageItem) => void }) {
  const { t } = useTranslation();
  return (
    <List.Item
      className={`message-item${item.read ? '' : ' message-item-unread'}`}
      onClick={() => onOpen(item)}
      data-testid={`message-item-${item.id}`}
      data-read={item.read ? 'true' : 'false'}
      data-target={item.target?.type ?? 'none'}
    >
      <List.Item.Meta
        avatar={<Badge dot={!item.read} />}
        title={
          <Space size={6}>
            <span className="message-title">{item.title}</span>
            {item.doneTime !== null ? <Tag color="success">{t('messages.done')}</Tag> : null}
          </Space>
        }
        description={
          <>
            <Typography.Paragraph className="message-content" ellipsis={{ rows: 2 }}>
              {item.content}
            </Typography.Paragraph>
            <span className="message-time" title={item.createdTime}>
              {fromNow(item.createdTime)}
            </span>
          </>
        }
      />
    </List.Item>
  );
}

/**
 * Marks an item read (when unread) and opens what it is about: an announcement in the reader
 * (`read`, every role may), anything else on its screen.
 */
export function useOpenMessage({ after, read }: { after?: () => void; read: (announcementId: number) => void }) {
  const navigate = useNavigate();
  const user = useCurrentUser();
  const markRead = useMarkRead();
  return (item: MessageItem) => {
    if (!item.read) markRead.mutate([item.id]);
    if (item.target?.type === 'announcement' && item.target.id !== null) {
      after?.();
      read(item.target.id);
      return;
    }
    const path = targetPath(item, user?.id);
    if (path !== null) {
      after?.();
      void navigate(path);
    }
  };
}

function TabList({ kind, onClose, read }: { kind: MessageKind; onClose: () => void; read: (announcementId: number) => void }) {
  const { t } = useTranslation();
  const { data, isPending } = useMessages({ type: kind, page: 1, pageSize: POPOVER_PAGE_SIZE });
  const open = useOpenMessage({ after: onClose, read });
  if (isPending) return <Spin className="message-spin" />;
  if (!data || data.list.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('messages.empty')} />;
  return <List className="message-list" dataSource={data.list} renderItem={(item) => <MessageRow item={item} onOpen={open} />} />;
}

/**
 * The navbar's message box (docs/product.md "Messages"): a bell with the unread badge, and a popover with the
 * tabs message / notice / todo, each with its unread count, opening on the first tab with
 * unread items; "all read" marks every unread item
 * of the tab, "view more" opens the full page. The counts are polled (api/messages.ts).
 */
export function MessageBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const counts = useUnreadCounts();
  const markRead = useMarkRead();
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<MessageKind>('message');
  const [clearing, setClearing] = useState(false);
  const [reading, setReading] = useState<number | null>(null);

  const openBox = (next: boolean) => {
    if (next) setTab(firstUnreadKind(counts, tab));
    setOpen(next);
  };

  const allRead = async () => {
    setClearing(true);
    try {
      const ids = await unreadIds(tab);
      for (let i = 0; i < ids.length; i += 1000) await markRead.mutateAsync(ids.slice(i, i + 1000));
    } catch {
      // the API client already showed why
    } finally {
      setClearing(false);
    }
  };

  const content = (
    <div className="message-box" data-testid="message-box">
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as MessageKind)}
        size="small"
        items={MESSAGE_KINDS.map((kind) => ({
          key: kind,
          label: (
            <span data-testid={`message-tab-${kind}`}>
              {t(`messages.kind.${kind}`)}
              {counts[kind] > 0 ? <span className="message-tab-count">({counts[kind]})</span> : null}
            </span>
          ),
          children: open && tab === kind ? <TabList kind={kind} onClose={() => setOpen(false)} read={setReading} /> : null,
        }))}
      />
      <div className="message-box-footer">
        <Button
          type="link"
          size="small"
          disabled={counts[tab] === 0}
          loading={clearing}
          onClick={() => void allRead()}
          data-testid="message-all-read"
        >
          {t('messages.allRead')}
        </Button>
        <Button
          type="link"
          size="small"
          onClick={() => {
            setOpen(false);
            void navigate(`${MESSAGE_PAGE_PATH}?type=${tab}`);
          }}
          data-testid="message-view-more"
        >
          {t('messages.viewMore')}
        </Button>
      </div>
    </div>
  );

  return (
    <>
      <Popover
        content={content}
        trigger="click"
        placement="bottomRight"
        // On a phone the box is nearly as wide as the screen: neither side of the bell has room,
        // so it is shifted into the screen instead of flipped out of it.
        align={{ overflow: { adjustX: true, adjustY: true, shiftX: true } }}
        open={open}
        onOpenChange={openBox}
        arrow={false}
      >
        <Badge count={counts.total} size="small" overflowCount={99} data-testid="message-badge" data-count={counts.total}>
          <Button shape="circle" icon={<BellOutlined />} aria-label={t('messages.bell')} data-testid="message-bell" />
        </Badge>
      </Popover>
      <AnnouncementReading id={reading} onClose={() => setReading(null)} />
    </>
  );
}
