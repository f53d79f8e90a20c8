import { useState } from 'react';
import { App, Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TRACKED_EVENTS } from '@clearplay/contract/constants';
import { exportOrders } from '../api/export-orders.ts';
import { trackEvent } from '../../tracking/index.ts';
import { can, useActor } from '../../../lib/permissions.ts';

/**
 * The order screen's Export: the orders matching the list's current filters as an xlsx the
 * server streams. Shown only with order:export.
 */
export function ExportButton({ filters }: { filters: Record<string, unknown> }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const actor = useActor();
  const [loading, setLoading] = useState(false);
  if (!can(actor, 'order:export')) return null;

  const run = async () => {
    setLoading(true);
    try {
      const name = await exportOrders(filters, 'orders.xlsx');
      trackEvent(TRACKED_EVENTS.orderExport);
      void message.success(t('orderIo.export.success', { name }));
    } catch {
      // the API client has shown the error
    } finally {
      setLoading(false);
    }
  };

  return (
    <Button icon={<DownloadOutlined />} loading={loading} onClick={() => void run()} data-testid="order-export">
      {t('orderIo.export')}
    </Button>
  );
}
