import { Alert, Descriptions, Form, Input, InputNumber, Radio, Tag } from 'antd';
import type { SubscriptionType, UserItem } from '@clearplay/contract';
import { CUSTOM_DAYS_MAX, SUBSCRIPTION_DAYS } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal.tsx';
import dayjs from '../../../lib/dayjs.ts';
import { useSetSubscription } from '../api/users.ts';
import { resultingEnd, subscriptionDays, SUBSCRIPTION_STATE_COLOR } from '../subscription.ts';
import { formatDate } from '../../../lib/date.ts';
import { charLimit } from '../../../lib/char-limit.ts';

interface Values {
  type: SubscriptionType;
  durationDays?: number;
  remark?: string;
}

/**
 * Subscribe or renew (docs/product.md "Money"): monthly, yearly or custom days. Shows the current end and
 * the end it will have before confirming; a running subscription is extended from its end.
 */
export function SubscriptionModal({ user, onClose }: { user: UserItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const subscribe = useSetSubscription();
  const type = Form.useWatch('type', form) ?? 'monthly';
  const customDays = Form.useWatch('durationDays', form);
  const days = subscriptionDays(type, customDays);
  const currentEnd = user?.serviceEndDate ?? null;
  const running = currentEnd !== null && dayjs(currentEnd).isAfter(dayjs());
  const next = days !== null ? resultingEnd(currentEnd, days) : null;

  return (
    <FormModal<Values>
      open={user !== null}
      form={form}
      title={
        running
          ? t('user.subscription.renewTitle', { name: user?.username ?? '' })
          : t('user.subscription.title', { name: user?.username ?? '' })
      }
      onClose={onClose}
      onSubmit={(values) =>
        subscribe.mutateAsync({
          userId: user!.id,
          type: values.type,
          durationDays: values.type === 'custom' ? values.durationDays : undefined,
          remark: values.remark?.trim() || undefined,
        })
      }
      successMessage={t('feedback.subscribe.success')}
      initialValues={{ type: 'monthly' }}
      okText={running ? t('user.subscription.renew') : t('user.subscription.subscribe')}
      labelSpan={6}
      data-testid="subscription-form"
    >
      <Descriptions
        size="small"
        column={1}
        bordered
        style={{ marginBottom: 20 }}
        items={[
          {
            key: 'current',
            label: t('user.subscription.currentEnd'),
            children: (
              <span data-testid="subscription-current-end">
                {/* Never subscribed: the state tag alone says so ("未订阅" once, not twice). */}
                {currentEnd ? `${formatDate(currentEnd)} ` : user ? null : t('user.subscription.none')}
                {user ? (
                  <Tag color={SUBSCRIPTION_STATE_COLOR[user.subscriptionState]}>
                    {t(`user.subscriptionState.${user.subscriptionState}`)}
                  </Tag>
                ) : null}
              </span>
            ),
          },
          {
            key: 'next',
            label: t('user.subscription.newEnd'),
            children: <strong data-testid="subscription-new-end">{formatDate(next)}</strong>,
          },
        ]}
      />
      <Form.Item name="type" label={t('user.subscription.type')} rules={[{ required: true }]}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={[
            { value: 'monthly', label: t('user.subscription.type.monthly', { days: SUBSCRIPTION_DAYS.monthly }) },
            { value: 'yearly', label: t('user.subscription.type.yearly', { days: SUBSCRIPTION_DAYS.yearly }) },
            { value: 'custom', label: t('user.subscription.type.custom') },
          ]}
        />
      </Form.Item>
      {type === 'custom' ? (
        <Form.Item
          name="durationDays"
          label={t('user.subscription.days')}
          rules={[{ required: true, message: t('form.required', { label: t('user.subscription.days') }) }]}
        >
          <InputNumber<number>
            min={1}
            max={CUSTOM_DAYS_MAX}
            precision={0}
            suffix={t('user.subscription.daysUnit')}
            style={{ width: 180 }}
            data-testid="subscription-days"
          />
        </Form.Item>
      ) : null}
      <Form.Item name="remark" label={t('common.remark')}>
        <Input.TextArea count={charLimit(200)} rows={2} />
      </Form.Item>
      {running ? <Alert type="info" showIcon title={t('user.subscription.renewHint')} /> : null}
    </FormModal>
  );
}
