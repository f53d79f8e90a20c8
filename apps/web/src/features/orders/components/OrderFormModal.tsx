import { useState } from 'react';
import { Form } from 'antd';
import type { OrderItem } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal.tsx';
import { useCreateOrder, useUpdateOrder } from '../api/orders.ts';
import { OrderFormFields, orderBodyOf, useOrderFormInitialValues, type OrderFormValues } from './OrderFormFields.tsx';

export interface OrderFormModalProps {
  open: boolean;
  /** The order to edit; none to create one. */
  order?: OrderItem;
  onClose(): void;
  onSaved(item: OrderItem): void;
}

/**
 * Create or edit a detection order in a dialog: the shared order fields (OrderFormFields, also
 * on the full-page form /form/order) inside the house FormModal.
 */
export function OrderFormModal(props: OrderFormModalProps) {
  // A fresh form (initial values, price tracking) each time the dialog opens; while it closes
  // it keeps showing the order it was opened with, whatever the parent passes meanwhile.
  const [session, setSession] = useState(0);
  const [wasOpen, setWasOpen] = useState(props.open);
  const [shown, setShown] = useState(props.order);
  if (props.open !== wasOpen) {
    setWasOpen(props.open);
    if (props.open) setSession((s) => s + 1);
  }
  if (props.open && props.order !== shown) setShown(props.order);
  return <OrderForm key={session} {...props} order={props.open ? props.order : shown} />;
}

function OrderForm({ open, order, onClose, onSaved }: OrderFormModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<OrderFormValues>();
  const create = useCreateOrder();
  const update = useUpdateOrder();
  const initialValues = useOrderFormInitialValues(order);
  const editing = order !== undefined;

  const submit = (values: OrderFormValues) => {
    const body = orderBodyOf(values);
    return editing ? update.mutateAsync({ id: order.id, ...body }) : create.mutateAsync(body);
  };

  return (
    <FormModal<OrderFormValues, OrderItem>
      open={open}
      title={editing ? t('orderForm.edit.title', { code: order.code }) : t('orderForm.create.title')}
      onClose={onClose}
      onSubmit={submit}
      onSuccess={(item) => onSaved(item)}
      successMessage={editing ? t('feedback.update.success') : t('feedback.create.success')}
      initialValues={initialValues}
      form={form}
      width={880}
      layout="vertical"
      data-testid="order-form"
    >
      <OrderFormFields form={form} order={order} variant="modal" />
    </FormModal>
  );
}
