import { Form, Input, Typography } from 'antd';
import type { RechargeResult } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { yuanToFen } from '@clearplay/contract/constants';
import { FormModal } from '../../../components/FormModal.tsx';
import { MoneyInput } from '../../../components/Money.tsx';
import { useRecharge } from '../api/ledger.ts';
import { charLimit } from '../../../lib/char-limit.ts';

interface RechargeValues {
  amount: number;
  remark?: string;
}

/** Records a recharge (money received from the shop): the amount in CNY and a remark. */
export function RechargeModal({
  shop,
  onClose,
  onSuccess,
}: {
  shop: { id: number; name: string } | null;
  onClose: () => void;
  onSuccess?: (result: RechargeResult) => void;
}) {
  const { t } = useTranslation();
  const recharge = useRecharge();
  return (
    <FormModal<RechargeValues, RechargeResult>
      open={shop !== null}
      title={t('ledger.recharge.title', { name: shop?.name ?? '' })}
      onClose={onClose}
      onSubmit={(values) =>
        recharge.mutateAsync({ userId: shop?.id ?? 0, amount: yuanToFen(values.amount), remark: values.remark?.trim() || undefined })
      }
      onSuccess={(result) => onSuccess?.(result)}
      successMessage={t('ledger.recharge.success')}
      width={480}
      labelSpan={6}
      data-testid="ledger-recharge-modal"
    >
      <Typography.Paragraph type="secondary">{t('ledger.recharge.help')}</Typography.Paragraph>
      <Form.Item
        name="amount"
        label={t('ledger.recharge.amount')}
        rules={[
          { required: true, message: t('form.required', { label: t('ledger.recharge.amount') }) },
          { type: 'number', min: 0.01, message: t('ledger.recharge.amount.min') },
        ]}
      >
        <MoneyInput autoFocus data-testid="ledger-recharge-amount" />
      </Form.Item>
      <Form.Item name="remark" label={t('ledger.field.remark')}>
        <Input.TextArea count={charLimit(200)} showCount autoSize={{ minRows: 2, maxRows: 4 }} data-testid="ledger-recharge-remark" />
      </Form.Item>
    </FormModal>
  );
}
