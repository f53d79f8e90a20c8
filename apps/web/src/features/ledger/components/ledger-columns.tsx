import { Tag, type TableColumnType } from 'antd';
import type { LedgerKind } from '@clearplay/contract';
import type { TFunction } from 'i18next';
import { Money } from '../../../components/Money.tsx';

const KIND_COLOR: Record<LedgerKind, string> = { recharge: 'success', charge: 'processing', adjust: 'warning', reversal: 'purple' };

/** What a ledger table shows of an entry: a shop's ledger and an order's entries alike. */
export interface LedgerRow {
  createdTime: string;
  kind: LedgerKind;
  amount: number;
  /** Null where the reader may not see the shop's balance. */
  balanceAfter: number | null;
  remark: string;
  operator: string;
}

/**
 * The ledger's columns, one definition for every ledger table: time, kind, signed amount, the
 * balance after it (unless `balance` is false), `extra` columns, remark and operator.
 */
export function ledgerColumns<T extends LedgerRow>(
  t: TFunction,
  { formatTime, balance = true, extra = [] }: { formatTime: (value: string) => string; balance?: boolean; extra?: TableColumnType<T>[] },
): TableColumnType<T>[] {
  return [
    {
      key: 'createdTime',
      title: t('ledger.field.time'),
      dataIndex: 'createdTime',
      width: 170,
      render: (value: string) => formatTime(value),
    },
    {
      key: 'kind',
      title: t('ledger.field.kind'),
      dataIndex: 'kind',
      width: 90,
      render: (kind: LedgerKind) => <Tag color={KIND_COLOR[kind]}>{t(`ledger.kind.${kind}`)}</Tag>,
    },
    {
      key: 'amount',
      title: t('ledger.field.amount'),
      dataIndex: 'amount',
      width: 120,
      align: 'right',
      render: (fen: number) => <Money fen={fen} signed />,
    },
    ...(balance
      ? [
          {
            key: 'balanceAfter',
            title: t('ledger.field.balanceAfter'),
            dataIndex: 'balanceAfter',
            width: 120,
            align: 'right' as const,
            render: (fen: number | null) => (fen === null ? '-' : <Money fen={fen} />),
          },
        ]
      : []),
    ...extra,
    { key: 'remark', title: t('ledger.field.remark'), dataIndex: 'remark', ellipsis: true, render: (r: string) => r || '-' },
    { key: 'operator', title: t('ledger.field.operator'), dataIndex: 'operator', width: 110 },
  ];
}
