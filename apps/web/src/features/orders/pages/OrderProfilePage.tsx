import { lazy, Suspense, useState } from 'react';
import { Alert, App, Button, Card, Col, Flex, Result, Row, Skeleton, Spin, Table, Typography } from 'antd';
import { DownloadOutlined, UnorderedListOutlined } from '@ant-design/icons';
import type { OrderItem, OrderLedgerEntry } from '@clearplay/contract';
import { ORDER_IMAGE_KINDS } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { can, useActor } from '../../../lib/permissions.ts';
import { useOrderProfile } from '../api/order-profile.ts';
import { downloadOrder } from '../api/orders.ts';
import { ImageGroup, OrderDescriptions, OrderHistorySection } from '../components/OrderDetailModal.tsx';
import { formatOrderTime } from '../format.ts';
import { ledgerColumns } from '../../ledger/index.ts';

const VerifyQrCode = lazy(() => import('../components/VerifyQrCode.tsx'));

/**
 * `/profile/order/:id` (server menu "profile"): an order's profile for every
 * role that may see it (the server answers 404 otherwise): every field, the evidence by kind,
 * the verification code with its URL and QR code, the order's ledger entries and the target's
 * history.
 */
export default function OrderProfilePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const raw = useParams().id ?? '';
  const id = /^\d{1,15}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  const profile = useOrderProfile(id);

  const missing = id === null || (profile.error instanceof ApiError && (profile.error.status === 404 || profile.error.status === 400));
  if (missing)
    return (
      <Result
        status="404"
        title={t('pages.profile.notFound')}
        subTitle={t('pages.profile.notFoundText')}
        extra={
          <Button type="primary" onClick={() => void navigate('/order/inspect')} data-testid="order-profile-to-list">
            {t('pages.result.toList')}
          </Button>
        }
        data-testid="order-profile-missing"
      />
    );
  if (profile.error)
    return (
      <Result
        status="error"
        title={t('pages.profile.failed')}
        subTitle={profile.error.message}
        extra={<Button onClick={() => void profile.refetch()}>{t('pages.profile.retry')}</Button>}
        data-testid="order-profile-error"
      />
    );
  if (!profile.data) return <Skeleton active data-testid="order-profile-loading" />;

  const { order, verifyUrl, ledger } = profile.data;
  return (
    <div data-testid="order-profile" data-code={order.code}>
      <PageHeader
        title={t('pages.profile.title', { code: order.code })}
        description={t('pages.profile.description')}
        extra={<ProfileActions order={order} />}
      />
      <Row gutter={16}>
        <Col xs={24} xl={16}>
          <Card title={t('pages.profile.section.order')} style={{ marginBottom: 16 }} data-testid="order-profile-fields">
            <OrderDescriptions order={order} images={false} />
          </Card>
          <Card title={t('pages.profile.section.images')} style={{ marginBottom: 16 }} data-testid="order-profile-images">
            <Flex vertical gap={16}>
              {ORDER_IMAGE_KINDS.map((kind) => (
                <div key={kind}>
                  <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
                    {t(`order.field.${kind}`)}
                  </Typography.Text>
                  <ImageGroup kind={kind} value={order[kind]} />
                </div>
              ))}
            </Flex>
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card title={t('pages.profile.section.verify')} style={{ marginBottom: 16 }} data-testid="order-profile-verify">
            <Flex vertical align="center" gap={12}>
              <Suspense fallback={<Spin />}>
                <VerifyQrCode url={verifyUrl} />
              </Suspense>
              <Typography.Text strong copyable style={{ fontSize: 18, letterSpacing: 2 }} data-testid="order-profile-code">
                {order.code}
              </Typography.Text>
              <Typography.Link href={verifyUrl} target="_blank" rel="noreferrer" copyable data-testid="order-profile-verify-url">
                {verifyUrl}
              </Typography.Link>
              <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
                {order.ifPublic === 1 ? t('pages.profile.verify.public') : t('pages.profile.verify.private')}
              </Typography.Text>
            </Flex>
          </Card>
        </Col>
      </Row>
      <Card title={t('pages.profile.section.ledger')} style={{ marginBottom: 16 }} data-testid="order-profile-ledger">
        {ledger === null ? <Alert type="info" showIcon title={t('pages.profile.ledger.hidden')} /> : <LedgerEntries entries={ledger} />}
      </Card>
      <Card data-testid="order-profile-history">
        <OrderHistorySection orderId={order.id} />
      </Card>
    </div>
  );
}

function ProfileActions({ order }: { order: OrderItem }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const actor = useActor();
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      const name = await downloadOrder(order.id);
      void message.success(t('order.download.success', { name }));
    } catch {
      // the API client already showed why
    } finally {
      setDownloading(false);
    }
  };
  return (
    <>
      {can(actor, 'order:download') ? (
        <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => void download()} data-testid="order-profile-download">
          {t('order.download')}
        </Button>
      ) : null}
      <Button icon={<UnorderedListOutlined />} onClick={() => void navigate('/order/inspect')} data-testid="order-profile-to-list">
        {t('pages.result.toList')}
      </Button>
    </>
  );
}

/** The order's ledger entries, oldest first: its charge, adjustments and reversal. */
function LedgerEntries({ entries }: { entries: OrderLedgerEntry[] }) {
  const { t } = useTranslation();
  return (
    <Table<OrderLedgerEntry>
      size="small"
      rowKey="id"
      dataSource={entries}
      pagination={false}
      locale={{ emptyText: t('pages.profile.ledger.none') }}
      data-testid="order-profile-ledger-table"
      columns={ledgerColumns<OrderLedgerEntry>(t, {
        formatTime: formatOrderTime,
        // an inspector sees the entries, not the shop's balance
        balance: entries.some((e) => e.balanceAfter !== null),
      })}
    />
  );
}
