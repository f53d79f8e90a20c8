import { useState, type ReactNode } from 'react';
import { Alert, App, Form, Modal, type FormInstance, type FormProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client.ts';

/** `{field, message}` from a failed answer's data (the contract's ErrorData). */
export interface ServerFieldError {
  field: string;
  message: string;
}

export function serverFieldErrors(error: unknown): ServerFieldError[] {
  if (!(error instanceof ApiError)) return [];
  const data = error.data as { errors?: unknown } | null;
  if (!data || !Array.isArray(data.errors)) return [];
  return data.errors.filter(
    (e): e is ServerFieldError => typeof e === 'object' && e !== null && typeof e.field === 'string' && typeof e.message === 'string',
  );
}

/**
 * Puts each server field error naming one of `fields` on that field of the form, and answers
 * the others (another field, or none), for the caller to show above the form.
 */
export function showServerErrors(form: FormInstance, fields: ReadonlySet<string>, errors: readonly ServerFieldError[]): ServerFieldError[] {
  const [onFields, others] = splitServerErrors(fields, errors);
  form.setFields(onFields.map((e) => ({ name: fieldPath(e.field) as never, errors: [e.message] })));
  return others;
}

/** The server field errors naming one of `fields`, and the others. */
export function splitServerErrors(
  fields: ReadonlySet<string>,
  errors: readonly ServerFieldError[],
): [onFields: ServerFieldError[], others: ServerFieldError[]] {
  const onField = (e: ServerFieldError) => fields.has(String(fieldPath(e.field)[0]));
  return [errors.filter(onField), errors.filter((e) => !onField(e))];
}

/** 'username', '/username', 'body/prices/0' or 'prices.0' → a form name path. */
export function fieldPath(field: string): (string | number)[] {
  return field
    .replace(/^\/+/, '')
    .replace(/^body[./]/, '')
    .split(/[./]/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

export interface FormModalProps<Values extends object, Result = unknown> {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  /** The mutation: gets the validated values; a rejection keeps the modal open. */
  onSubmit: (values: Values) => Promise<Result>;
  /** After a successful submit (the modal closes itself). */
  onSuccess?: (result: Result, values: Values) => void;
  /** Toast after success, e.g. t('feedback.create.success'). */
  successMessage?: string;
  initialValues?: Partial<Values>;
  /** Pass your own instance to watch fields (Form.useWatch) or set values. */
  form?: FormInstance<Values>;
  width?: number;
  layout?: FormProps['layout'];
  /** Label width for the horizontal layout (default 7 of 24). */
  labelSpan?: number;
  okText?: ReactNode;
  /** The fields (Form.Item elements). */
  children: ReactNode;
  'data-testid'?: string;
}

/**
 * The house create/edit dialog: an antd Form inside a Modal. OK validates the client rules,
 * calls `onSubmit` and closes on success with `successMessage`. When the server refuses with
 * field errors (`{errors: [{field, message}]}`), each message is put on its field; errors
 * for fields the form does not show are listed above the form.
 */
export function FormModal<Values extends object, Result = unknown>({
  open,
  title,
  onClose,
  onSubmit,
  onSuccess,
  successMessage,
  initialValues,
  form: external,
  width = 560,
  layout = 'horizontal',
  labelSpan = 7,
  okText,
  children,
  'data-testid': testId,
}: FormModalProps<Values, Result>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [own] = Form.useForm<Values>();
  const form = external ?? own;
  const [submitting, setSubmitting] = useState(false);
  const [otherErrors, setOtherErrors] = useState<ServerFieldError[]>([]);

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return; // the fields show their messages
    }
    setSubmitting(true);
    setOtherErrors([]);
    try {
      const result = await onSubmit(values);
      if (successMessage) void message.success(successMessage);
      onSuccess?.(result, values);
      onClose();
    } catch (error) {
      const known = new Set(Object.keys(form.getFieldsValue(true) as object));
      setOtherErrors(showServerErrors(form, known, serverFieldErrors(error)));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={okText ?? t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={submitting}
      destroyOnHidden
      // Like the fields, the last attempt's other errors end with the opening.
      afterClose={() => setOtherErrors([])}
      forceRender={false}
      maskClosable={false}
      data-testid={testId}
    >
      {otherErrors.length ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={otherErrors.map((e) => (
            <div key={e.field + e.message}>
              {e.field ? `${e.field}: ` : ''}
              {e.message}
            </div>
          ))}
        />
      ) : null}
      <Form<Values>
        form={form}
        layout={layout}
        labelCol={layout === 'horizontal' ? { span: labelSpan } : undefined}
        wrapperCol={layout === 'horizontal' ? { span: 24 - labelSpan } : undefined}
        initialValues={initialValues}
        preserve={false}
        // The dialog stays mounted between openings (one per screen, for "new" and each row's
        // "edit"); its content is destroyed on close. Without this, the store kept the last
        // opening's values and they won over the next opening's initialValues (the fields
        // unregister before the form learns it is destroyed, so rc-field-form cannot tell them apart).
        clearOnDestroy
        onFinish={() => void submit()}
        style={{ marginTop: 16 }}
      >
        {children}
        {/* Enter in a field submits */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
