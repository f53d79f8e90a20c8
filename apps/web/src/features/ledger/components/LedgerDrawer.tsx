import { useState } from 'react';
import { Button, Drawer, Empty, Flex, Form, Statistic, Table, Tag, Typography } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { LedgerEntry } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@clearplay/contract/constants';
import { UserSelect } from '../../../components/UserSelect.tsx';
import { can, useActor } from '../../../lib/permissions.ts';
import { useLedger } from '../api/ledger.ts';
import { RechargeModal } from './RechargeModal.tsx';
import { ledgerColumns } from './ledger-columns.tsx';
import { formatDate } from '../../../lib/date.ts';

const PAGE_SIZE = 10;

export interface LedgerShop {
  id: number;
  name: string;
}

/**
 * Shop balances: pick a shop, see its balance and its ledger (recharges, a charge per order,
 * reversals), and record a recharge (user:recharge). Balance = the sum of the ledger.
 */
export function LedgerDrawer({
  open,
  onClose,
  shop: initialShop = null,
}: {
  open: boolean;
  onClose: () => void;
  shop?: LedgerShop | null;
}) {
  const { t, i18n } = useTranslation();
  const actor = useActor();
  const [shop, setShop] = useState<LedgerShop | null>(initialShop);
  const [page, setPage] = useState(1);
  const [recharging, setRecharging] = useState(false);
  const ledger = useLedger(open ? (shop?.id ?? null) : null, page, PAGE_SIZE);
  const balance = ledger.data?.balance;

  const choose = (value: number | undefined, label: unknown) => {
    setPage(1);
    setShop(value === undefined ? null : { id: value, name: typeof label === 'string' ? label : String(value) });
  };

  return (
    <Drawer open={open} onClose={onClose} size={920} title={t('ledger.title')} destroyOnHidden data-testid="ledger-drawer">
      <Flex justify="space-between" align="flex-end" gap={16} wrap style={{ marginBottom: 16 }}>
        <Form layout="vertical" style={{ minWidth: 320 }}>
          <Form.Item label={t('ledger.shop')} style={{ marginBottom: 0 }}>
            <UserSelect
              roleName="shop"
              value={shop?.id}
              labelRender={shop ? () => shop.name : undefined}
              placeholder={t('ledger.shop.placeholder')}
              onChange={(value: number | undefined, option) =>
                choose(value, Array.isArray(option) ? undefined : (option as { label?: unknown } | undefined)?.label)
              }
              style={{ width: 320 }}
              data-testid="ledger-shop"
            />
          </Form.Item>
        </Form>
        {shop ? (
          <Flex align="flex-end" gap={24}>
            <div data-testid="ledger-balance" data-fen={balance ?? ''}>
              <Statistic
                title={
                  <>
                    {t('ledger.balance')}
                    {balance !== undefined && balance < 0 ? (
                      <Tag color="error" style={{ marginLeft: 8 }}>
                        {t('ledger.balance.owes')}
                      </Tag>
                    ) : null}
                  </>
                }
                loading={balance === undefined && ledger.isFetching}
                value={balance === undefined ? '-' : formatMoney(balance, i18n.language)}
                styles={{ content: { color: balance !== undefined && balance < 0 ? 'var(--ant-color-error)' : undefined } }}
              />
            </div>
            {can(actor, 'user:recharge') ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setRecharging(true)} data-testid="ledger-recharge">
                {t('ledger.recharge')}
              </Button>
            ) : null}
          </Flex>
        ) : null}
      </Flex>

      {shop ? (
        <>
          <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
            <Typography.Text strong>{t('ledger.entries')}</Typography.Text>
            <Button
              type="text"
              icon={<ReloadOutlined />}
              onClick={() => void ledger.refetch()}
              loading={ledger.isFetching}
              aria-label={t('ledger.refresh')}
              title={t('ledger.refresh')}
            />
          </Flex>
          <Table<LedgerEntry>
            rowKey="id"
            size="small"
            loading={ledger.isFetching}
            dataSource={ledger.data?.list ?? []}
            scroll={{ x: 860 }}
            data-testid="ledger-table"
            pagination={{
              current: page,
              pageSize: PAGE_SIZE,
              total: ledger.data?.total ?? 0,
              showSizeChanger: false,
              showTotal: (total) => t('table.total', { total }),
              onChange: setPage,
            }}
            columns={ledgerColumns<LedgerEntry>(t, {
              formatTime: (value) => formatDate(value),
              extra: [
                {
                  key: 'orderId',
                  title: t('ledger.field.order'),
                  dataIndex: 'orderId',
                  width: 90,
                  render: (id: number | null) => (id === null ? '-' : `#${id}`),
                },
              ],
            })}
          />
        </>
      ) : (
        <Empty description={t('ledger.pickShop')} style={{ marginTop: 64 }} />
      )}

      <RechargeModal shop={recharging ? shop : null} onClose={() => setRecharging(false)} />
    </Drawer>
  );
}
