import { Alert, Button, Descriptions, Flex, Image, Modal, Skeleton, Typography, type DescriptionsProps } from 'antd';
import { DownloadOutlined, ProfileOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { OrderImageKind, OrderItem } from '@clearplay/contract';
import { ORDER_DICTS, ORDER_IMAGE_KINDS } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { DictTag, DictText } from '../../../components/DictTag.tsx';
import { Money } from '../../../components/Money.tsx';
import { parseImageList } from '../../../components/ImageUploader/index.ts';
import { useOrderHistory } from '../api/order-history.ts';
import { useOrder } from '../api/orders.ts';
import { formatOrderTime } from '../format.ts';
import { TargetHistoryPanel } from './TargetHistoryPanel.tsx';
import '../orders.css';

/** The images of one kind as thumbnails; a click previews them (arrows go through the kind). */
export function ImageGroup({ kind, value }: { kind: OrderImageKind; value: string }) {
  const { t } = useTranslation();
  const urls = parseImageList(value);
  if (urls.length === 0) return <Typography.Text type="secondary">{t('order.detail.noImages')}</Typography.Text>;
  return (
    <Image.PreviewGroup>
      <Flex wrap gap={8} data-testid={`order-images-${kind}`}>
        {urls.map((url, index) => (
          <Image
            key={`${index}-${url}`}
            src={url}
            width={72}
            height={72}
            alt={`${t(`order.field.${kind}`)} ${index + 1}`}
            style={{ objectFit: 'cover', borderRadius: 4 }}
          />
        ))}
      </Flex>
    </Image.PreviewGroup>
  );
}

/**
 * Every field of the order; in the public (reduced) view without the amount and the client.
 * `images` false leaves the evidence out (the profile page shows it in a card of its own).
 */
export function OrderDescriptions({ order, images = true }: { order: OrderItem; images?: boolean }) {
  const { t } = useTranslation();
  const full = order.view === 'full';
  const items: DescriptionsProps['items'] = [
    { key: 'code', label: t('order.field.code'), children: <Typography.Text copyable>{order.code}</Typography.Text> },
    { key: 'result', label: t('order.field.result'), children: <DictTag type={ORDER_DICTS.result} value={order.result} /> },
    { key: 'objWechat', label: t('order.field.objWechat'), children: order.objWechat },
    { key: 'objWechatName', label: t('order.field.objWechatName'), children: order.objWechatName },
    { key: 'gameName', label: t('order.field.gameName'), children: <DictText type={ORDER_DICTS.game} value={order.gameName} /> },
    { key: 'mac', label: t('order.field.mac'), children: <Typography.Text code>{order.mac}</Typography.Text> },
    { key: 'installationTime', label: t('order.field.installationTime'), children: formatOrderTime(order.installationTime) },
    { key: 'objClientName', label: t('order.field.objClientName'), children: order.objClientName },
    ...(full
      ? [
          { key: 'userName', label: t('order.field.userName'), children: order.userName ?? '—' },
          { key: 'amount', label: t('order.field.amount'), children: order.amount === null ? '—' : <Money fen={order.amount} strong /> },
          { key: 'inspectorName', label: t('order.field.inspectorName'), children: order.inspectorName ?? '—' },
        ]
      : []),
    { key: 'ifPublic', label: t('order.field.ifPublic'), children: <DictTag type={ORDER_DICTS.ifPublic} value={order.ifPublic} /> },
    {
      key: 'ifChangedMac',
      label: t('order.field.ifChangedMac'),
      children: <DictTag type={ORDER_DICTS.ifChangedMac} value={order.ifChangedMac} />,
    },
    { key: 'createdTime', label: t('order.field.createdTime'), children: formatOrderTime(order.createdTime) },
    { key: 'updatedTime', label: t('order.field.updatedTime'), children: formatOrderTime(order.updatedTime) },
    {
      key: 'description',
      label: t('order.field.description'),
      span: 'filled',
      children: order.description.trim() ? (
        <Typography.Paragraph
          className="order-description-text"
          style={{ whiteSpace: 'pre-wrap', margin: 0 }}
          data-testid="order-description"
        >
          {order.description}
        </Typography.Paragraph>
      ) : (
        <Typography.Text type="secondary" data-testid="order-description">
          {t('order.detail.noDescription')}
        </Typography.Text>
      ),
    },
    ...(images ? ORDER_IMAGE_KINDS : []).map((kind) => ({
      key: kind,
      label: t(`order.field.${kind}`),
      span: 'filled' as const,
      children: <ImageGroup kind={kind} value={order[kind]} />,
    })),
  ];
  return (
    <>
      {full ? null : <Alert type="info" showIcon title={t('order.detail.publicView')} style={{ marginBottom: 16 }} />}
      <Descriptions
        className="order-descriptions"
        bordered
        size="small"
        column={{ xs: 1, sm: 1, md: 2 }}
        styles={{ label: { width: 130 } }}
        items={items}
      />
    </>
  );
}

/** The target's history as of this order: the records before it, under the reader's visibility. */
export function OrderHistorySection({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  const history = useOrderHistory({ orderId });
  return (
    <div data-testid="order-detail-history" style={{ marginTop: 16 }}>
      <Typography.Title level={5}>{t('history.detail.title')}</Typography.Title>
      <TargetHistoryPanel history={history.data} loading={history.isFetching} />
    </div>
  );
}

/**
 * The detail modal "Order Details": every field, the images grouped by kind as
 * previewable thumbnails, "No description" when there is none, and a close action.
 */
export function OrderDetailModal({
  id,
  onClose,
  onDownload,
}: {
  /** The order shown; null closes the modal. */
  id: number | null;
  onClose: () => void;
  /** Shown as the footer's download action when given (the caller checks order:download). */
  onDownload?: (order: OrderItem) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: order } = useOrder(id);
  const shown = order && order.id === id ? order : undefined;
  return (
    <Modal
      open={id !== null}
      title={t('order.detail.title')}
      onCancel={onClose}
      width={860}
      destroyOnHidden
      footer={
        <Flex justify="flex-end" gap={8}>
          {shown ? (
            <Button
              icon={<ProfileOutlined />}
              onClick={() => void navigate(`/profile/order/${shown.id}`)}
              data-testid="order-detail-profile"
            >
              {t('order.profile')}
            </Button>
          ) : null}
          {onDownload && shown ? (
            <Button icon={<DownloadOutlined />} onClick={() => onDownload(shown)} data-testid="order-detail-download">
              {t('order.download')}
            </Button>
          ) : null}
          <Button type="primary" onClick={onClose} data-testid="order-detail-close">
            {t('order.detail.close')}
          </Button>
        </Flex>
      }
    >
      <div data-testid="order-detail">
        {shown ? (
          <>
            <OrderDescriptions order={shown} />
            <OrderHistorySection orderId={shown.id} />
          </>
        ) : (
          <Skeleton active />
        )}
      </div>
    </Modal>
  );
}
