import { useState } from 'react';
import { App, Button, Drawer, Empty, Flex, List, Tag, Typography } from 'antd';
import { DeleteOutlined, PushpinFilled } from '@ant-design/icons';
import type { AnnouncementItem } from '@clearplay/contract';
import { ANNOUNCEMENT_TYPE_DICT } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { useConfirmDelete } from '../../../components/confirm.ts';
import { DictTag } from '../../../components/DictTag.tsx';
import { formatDate } from '../../../lib/date.ts';
import { can, useActor } from '../../../lib/permissions.ts';
import { useAnnouncements, useDeleteAnnouncement } from '../api/announcements.ts';
import { AnnouncementView } from './AnnouncementView.tsx';

/** Announcements as a list: click one to read it; delete (announcement:delete) after the spec's confirm. */
export function AnnouncementList({ items, loading = false }: { items: readonly AnnouncementItem[]; loading?: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const actor = useActor();
  const confirmDelete = useConfirmDelete();
  const remove = useDeleteAnnouncement();
  const [open, setOpen] = useState<AnnouncementItem | null>(null);
  const mayDelete = can(actor, 'announcement:delete');
  return (
    <>
      <List
        loading={loading}
        dataSource={[...items]}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('announcement.empty')} /> }}
        data-testid="announcement-list"
        renderItem={(item) => (
          <List.Item
            key={item.id}
            data-testid="announcement-item"
            actions={
              mayDelete
                ? [
                    <Button
                      key="delete"
                      size="small"
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('common.delete')}
                      data-testid="announcement-delete"
                      onClick={() =>
                        confirmDelete(async () => {
                          await remove.mutateAsync(item.id);
                          void message.success(t('feedback.delete.success'));
                        })
                      }
                    />,
                  ]
                : undefined
            }
          >
            <Flex vertical gap={2} style={{ minWidth: 0, flex: 1 }}>
              <Flex gap={6} align="center" style={{ minWidth: 0 }}>
                {item.pinned === 1 ? (
                  <PushpinFilled style={{ color: 'var(--ant-color-warning)' }} aria-label={t('announcement.pinned')} />
                ) : null}
                <DictTag type={ANNOUNCEMENT_TYPE_DICT} value={item.type} />
                <Typography.Link ellipsis onClick={() => setOpen(item)} style={{ minWidth: 0 }} data-testid="announcement-open">
                  {item.title}
                </Typography.Link>
              </Flex>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {item.authorName} · {formatDate(item.publishedTime, 'minute')}
              </Typography.Text>
            </Flex>
          </List.Item>
        )}
      />
      <AnnouncementView item={open} onClose={() => setOpen(null)} />
    </>
  );
}

/** Every announcement, paged, in a drawer. */
export function AnnouncementsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useAnnouncements({ page, pageSize: 10 });
  return (
    <Drawer open={open} onClose={onClose} title={t('announcement.all')} size="large" data-testid="announcements-drawer">
      {open ? <AnnouncementList items={query.data?.list ?? []} loading={query.isLoading} /> : null}
      <Flex justify="flex-end" gap={8} style={{ marginTop: 12 }}>
        <Tag>{t('announcement.total', { count: query.data?.total ?? 0 })}</Tag>
        <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          {t('announcement.prev')}
        </Button>
        <Button size="small" disabled={page * 10 >= (query.data?.total ?? 0)} onClick={() => setPage(page + 1)}>
          {t('announcement.next')}
        </Button>
      </Flex>
    </Drawer>
  );
}
