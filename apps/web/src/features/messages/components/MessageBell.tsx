import { useState } from 'react';
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

/** One item: title, short content, "3 minutes ago", a dot while unread. */
export function MessageRow({ item, onOpen }: { item: MessageItem; onOpen: (item: MessageItem) => void }) {
  const { t } = useTranslation();
  return (
    <List.Item
      className={`message-item${item.read ? '' : ' message-item-unread'}`}
      onClick={() => onOpen(item)}
      data-testid={`message-item-${item.id}`}
      data-read={item.read ? 'true' : 'false'}
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

/** Marks an item read (when unread) and opens what it is about. */
export function useOpenMessage(after?: () => void) {
  const navigate = useNavigate();
  const user = useCurrentUser();
  const markRead = useMarkRead();
  return (item: MessageItem) => {
    if (!item.read) markRead.mutate([item.id]);
    const path = targetPath(item, user?.id);
    if (path !== null) {
      after?.();
      void navigate(path);
    }
  };
}

function TabList({ kind, onClose }: { kind: MessageKind; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, isPending } = useMessages({ type: kind, page: 1, pageSize: POPOVER_PAGE_SIZE });
  const open = useOpenMessage(onClose);
  if (isPending) return <Spin className="message-spin" />;
  if (!data || data.list.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('messages.empty')} />;
  return <List className="message-list" dataSource={data.list} renderItem={(item) => <MessageRow item={item} onOpen={open} />} />;
}

/**
 * The navbar's message box (spec §2): a bell with the unread badge, and a popover with the
 * tabs message / notice / todo, each with its unread count; "all read" marks every unread item
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
          children: open && tab === kind ? <TabList kind={kind} onClose={() => setOpen(false)} /> : null,
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
    <Popover
      content={content}
      trigger="click"
      placement="bottomRight"
      // On a phone the box is nearly as wide as the screen: neither side of the bell has room,
      // so it is shifted into the screen instead of flipped out of it.
      align={{ overflow: { adjustX: true, adjustY: true, shiftX: true } }}
      open={open}
      onOpenChange={setOpen}
      arrow={false}
    >
      <Badge count={counts.total} size="small" overflowCount={99} data-testid="message-badge" data-count={counts.total}>
        <Button shape="circle" icon={<BellOutlined />} aria-label={t('messages.bell')} data-testid="message-bell" />
      </Badge>
    </Popover>
  );
}
