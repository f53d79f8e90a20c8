import { useEffect, useState } from 'react';
import { Alert, Button, Card, Flex, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { serverFieldErrors, showServerErrors, splitServerErrors, type ServerFieldError } from '../../../components/FormModal.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useCreateOrder } from '../api/orders.ts';
import {
  ORDER_FORM_FIELDS,
  OrderFormFields,
  orderBodyOf,
  useOrderFormInitialValues,
  type OrderFormValues,
} from '../components/OrderFormFields.tsx';
import { forgetOrderFormDraft, saveOrderFormDraft, takeOrderFormDraft, type OrderFormDraft } from '../form-draft.ts';
import { resultPath, type FailState } from './result-links.ts';

/** Router state of "back to the form" on the failure page. */
export interface OrderFormState {
  restore?: boolean;
}

/**
 * `/form/order` (server menu "form"): the order form as a page, the same fields and
 * rules as the dialog (OrderFormFields) in section cards. A saved order leads to the success
 * page; a refused one to the failure page with the server's reason, whose "back to the form"
 * brings the input back here with the errors on their fields.
 */
export default function OrderFormPage() {
  const location = useLocation();
  const [session, setSession] = useState(0);
  const [draft, setDraft] = useState<OrderFormDraft | null>(null);
  // "Back to the form": a fresh form from the draft (also when a kept tab still shows the page).
  const restore = (location.state as OrderFormState | null)?.restore === true;
  const [restoredKey, setRestoredKey] = useState<string | null>(null);
  if (restore && restoredKey !== location.key) {
    setRestoredKey(location.key);
    const taken = takeOrderFormDraft();
    if (taken) {
      setDraft(taken);
      setSession((s) => s + 1);
    }
  }
  return (
    <OrderFormPageBody
      key={session}
      draft={draft}
      onSaved={() => {
        setDraft(null);
        setSession((s) => s + 1);
      }}
    />
  );
}

function OrderFormPageBody({ draft, onSaved }: { draft: OrderFormDraft | null; onSaved: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<OrderFormValues>();
  const create = useCreateOrder();
  const fresh = useOrderFormInitialValues();
  const [submitting, setSubmitting] = useState(false);
  // The server's field errors of a restored draft go on their fields; the others above the form.
  const [otherErrors, setOtherErrors] = useState<ServerFieldError[]>(() =>
    draft ? splitServerErrors(ORDER_FORM_FIELDS, draft.errors)[1] : [],
  );
  useEffect(() => {
    if (draft) showServerErrors(form, ORDER_FORM_FIELDS, draft.errors);
  }, [draft, form]);

  const submit = async () => {
    let values: OrderFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // the fields show their messages
    }
    setSubmitting(true);
    try {
      const item = await create.mutateAsync(orderBodyOf(values));
      forgetOrderFormDraft();
      onSaved();
      void navigate(resultPath('success', { from: 'form', id: item.id, code: item.code }));
    } catch (error) {
      const errors = serverFieldErrors(error);
      saveOrderFormDraft({ values: form.getFieldsValue(true) as Partial<OrderFormValues>, errors });
      const state: FailState = { message: error instanceof Error ? error.message : '', errors };
      void navigate(resultPath('fail', { from: 'form' }), { state });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <>
      <PageHeader description={t('pages.form.description')} />
      {otherErrors.length ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="order-form-page-errors"
          title={otherErrors.map((e) => (
            <div key={e.field + e.message}>{e.message}</div>
          ))}
        />
      ) : null}
      <Form<OrderFormValues>
        form={form}
        layout="vertical"
        initialValues={draft?.values ?? fresh}
        onFinish={() => void submit()}
        data-testid="order-form-page"
      >
        <OrderFormFields form={form} variant="page" />
        <Card>
          <Flex gap={8} justify="flex-end">
            <Button
              onClick={() => {
                form.resetFields();
                setOtherErrors([]);
              }}
              disabled={submitting}
              data-testid="order-form-page-reset"
            >
              {t('pages.form.reset')}
            </Button>
            <Button type="primary" htmlType="submit" loading={submitting} data-testid="order-form-page-submit">
              {t('pages.form.submit')}
            </Button>
          </Flex>
        </Card>
      </Form>
    </>
  );
}
