import { Flex, Modal, Tag, Typography } from 'antd';
import { PushpinFilled } from '@ant-design/icons';
import type { AnnouncementItem } from '@clearplay/contract';
import { ANNOUNCEMENT_TYPE_DICT } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { DictTag } from '../../../components/DictTag.tsx';
import { formatDate } from '../../../lib/date.ts';
import '../announcements.css';

/**
 * One announcement in a modal. The content is HTML the server sanitized against its
 * allow-list before storing it (decision 0042), so it is rendered as it is.
 */
export function AnnouncementView({ item, onClose }: { item: AnnouncementItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={item !== null} onCancel={onClose} footer={null} width={720} title={item?.title} data-testid="announcement-view">
      {item ? (
        <>
          <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
            <DictTag type={ANNOUNCEMENT_TYPE_DICT} value={item.type} />
            {item.pinned === 1 ? (
              <Tag icon={<PushpinFilled />} color="gold">
                {t('announcement.pinned')}
              </Tag>
            ) : null}
            <Typography.Text type="secondary">
              {item.authorName} · {formatDate(item.publishedTime, 'minute')}
            </Typography.Text>
          </Flex>
          {/* The body is what its author wrote, in whatever language: user data, exempt from the English-screen check. */}
          <div
            className="announcement-html"
            data-testid="announcement-content"
            data-user-data=""
            dangerouslySetInnerHTML={{ __html: item.content }}
          />
        </>
      ) : null}
    </Modal>
  );
}
