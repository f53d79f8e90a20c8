// Over 400 lines: one form of about twenty fields in sections, with the amount rules, three image uploaders and the target-history proposal.
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { Button, Card, Col, DatePicker, Divider, Form, Input, Radio, Row, Typography, type FormInstance } from 'antd';
import type { Dayjs } from 'dayjs';
import type { OrderCreateBody, OrderItem, OrderResult } from '@clearplay/contract';
import {
  normalizeMac,
  ORDER_DICTS,
  ORDER_IMAGES_MAX,
  ORDER_TEXT_MAX,
  fenToYuan,
  formatMoney,
  yuanToFen,
} from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { DictSelect } from '../../../components/DictSelect.tsx';
import { ImageUploader } from '../../../components/ImageUploader/index.ts';
import { MoneyInput } from '../../../components/Money.tsx';
import { UserSelect } from '../../../components/UserSelect.tsx';
import dayjs from '../../../lib/dayjs.ts';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { useDictData } from '../../../lib/dicts.ts';
import { useTargetHistory } from '../api/order-history.ts';
import { useOrderPrices } from '../api/order-price.ts';
import { uploadTokenGetter } from '../api/upload-token.ts';
import { TargetHistoryPanel } from './TargetHistoryPanel.tsx';
import { can, useActor } from '../../../lib/permissions.ts';
import { charLimit } from '../../../lib/char-limit.ts';

/**
 * The order form's fields and rules, shared by the create/edit dialog (OrderFormModal) and the
 * full-page form (/form/order, OrderFormPage): the same fields, checks, amount-from-price,
 * uploaders and target-history panel; the caller owns the antd Form and its submit.
 */

export interface OrderFormValues {
  objWechat: string;
  objWechatName: string;
  gameName: string;
  mac: string;
  installationTime: Dayjs;
  result: OrderResult;
  userId: number;
  objClientName: string;
  inspectorId: number;
  /** In yuan while editing; fen on the wire. */
  amount: number | null;
  ifPublic: 0 | 1;
  ifChangedMac: 0 | 1;
  /** The target history's "changed MAC" proposal (a hidden field the fields keep up to date). */
  changedMacProposed?: 0 | 1;
  description: string;
  certImages: string;
  proofImages: string;
  personCertImages: string;
}

/** The names of the fields OrderFormFields renders (a server error naming another goes above the form). */
export const ORDER_FORM_FIELDS: ReadonlySet<string> = new Set<string>([
  'objWechat',
  'objWechatName',
  'gameName',
  'mac',
  'installationTime',
  'result',
  'userId',
  'objClientName',
  'inspectorId',
  'amount',
  'ifPublic',
  'ifChangedMac',
  'description',
  'certImages',
  'proofImages',
  'personCertImages',
] satisfies (keyof OrderFormValues)[]);

export interface OrderFormFieldsProps {
  form: FormInstance<OrderFormValues>;
  /** The order being edited; none for a new one. */
  order?: OrderItem;
  /** 'modal': sections under dividers; 'page': each section a card. */
  variant: 'modal' | 'page';
}

/** One getter per kind of evidence, created once so the uploader's callbacks stay stable. */
const IMAGE_FIELDS = [
  ['certImages', 'order.field.certImages', uploadTokenGetter('cert')],
  ['proofImages', 'order.field.proofImages', uploadTokenGetter('proof')],
  ['personCertImages', 'order.field.personCertImages', uploadTokenGetter('env')],
] as const;

const userLabel = (nickname: string | null | undefined, username: string) =>
  nickname && nickname !== username ? `${nickname} (${username})` : username;

function Section({ variant, title, testId, children }: { variant: 'modal' | 'page'; title: string; testId: string; children: ReactNode }) {
  if (variant === 'page')
    return (
      <Card title={title} style={{ marginBottom: 16 }} data-testid={testId}>
        {children}
      </Card>
    );
  return (
    <div data-testid={testId}>
      <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
        {title}
      </Divider>
      {children}
    </div>
  );
}

/** The values a form starts with: the order's, or a new order's (now, the current user as inspector). */
export function useOrderFormInitialValues(order?: OrderItem): Partial<OrderFormValues> {
  const me = useCurrentUser();
  return order
    ? {
        objWechat: order.objWechat,
        objWechatName: order.objWechatName,
        gameName: order.gameName,
        mac: order.mac,
        installationTime: dayjs(order.installationTime),
        result: order.result,
        userId: order.userId ?? undefined,
        objClientName: order.objClientName,
        inspectorId: order.inspectorId ?? undefined,
        amount: fenToYuan(order.amount),
        ifPublic: order.ifPublic,
        ifChangedMac: order.ifChangedMac,
        description: order.description,
        certImages: order.certImages,
        proofImages: order.proofImages,
        personCertImages: order.personCertImages,
      }
    : {
        installationTime: dayjs(),
        inspectorId: me?.id,
        ifPublic: 0,
        ifChangedMac: 0,
        description: '',
        certImages: '',
        proofImages: '',
        personCertImages: '',
      };
}

/** The create body of the validated values (the update body adds the id). */
export function orderBodyOf(values: OrderFormValues): OrderCreateBody {
  const proposal = values.changedMacProposed;
  return {
    objWechat: values.objWechat.trim(),
    objWechatName: values.objWechatName.trim(),
    gameName: values.gameName,
    mac: values.mac.trim(),
    installationTime: values.installationTime.toISOString(),
    result: values.result,
    userId: values.userId,
    objClientName: values.objClientName.trim(),
    inspectorId: values.inspectorId,
    amount: yuanToFen(values.amount),
    ifPublic: values.ifPublic,
    ifChangedMac: values.ifChangedMac,
    ...(proposal === 0 || proposal === 1 ? { changedMacProposed: proposal } : {}),
    description: values.description ?? '',
    certImages: values.certImages ?? '',
    proofImages: values.proofImages ?? '',
    personCertImages: values.personCertImages ?? '',
  };
}

/**
 * The fields of a detection order (docs/product.md "The back office" says which are required). The amount follows the
 * client shop's price for the chosen result (read-only unless the user holds
 * order:amount:override); the inspector is the current user unless the user holds
 * order:update:any. Evidence images go straight to the upload host (the image uploader).
 */
export function OrderFormFields({ form, order, variant }: OrderFormFieldsProps) {
  const { t, i18n } = useTranslation();
  const me = useCurrentUser();
  const actor = useActor();
  const mayOverride = can(actor, 'order:amount:override');
  const mayPickInspector = can(actor, 'order:update:any');
  const publicOptions = useDictData(ORDER_DICTS.ifPublic).map((e) => ({ value: Number(e.value), label: e.label }));
  const changedMacOptions = useDictData(ORDER_DICTS.ifChangedMac).map((e) => ({ value: Number(e.value), label: e.label }));
  const editing = order !== undefined;
  // Saving waits for uploads still running: their field fails validation until they end.
  const uploadingFields = useRef(new Set<string>());
  const uploadingChange = useMemo(
    () =>
      Object.fromEntries(
        IMAGE_FIELDS.map(([name]) => [
          name,
          (busy: boolean) => {
            if (busy) uploadingFields.current.add(name);
            else uploadingFields.current.delete(name);
          },
        ]),
      ) as Record<(typeof IMAGE_FIELDS)[number][0], (busy: boolean) => void>,
    [],
  );

  const userId = Form.useWatch('userId', form);
  const result = Form.useWatch('result', form);
  const amount = Form.useWatch('amount', form);
  const prices = useOrderPrices(userId);
  const price =
    prices.data && prices.data.userId === userId && result !== undefined && result !== null
      ? prices.data.prices[String(result) as '0']
      : undefined;

  // Fill the amount from the shop's price when the shop or the result changes. Without the
  // override permission the amount always is the price (the server checks it); with it, an
  // edited order keeps its amount until the shop or the result changes.
  // A form restored from a draft (the form page's "back to the form") starts from its own shop and result.
  const startShop = order ? order.userId : (form.getFieldValue('userId') as number | undefined);
  const startResult = order ? order.result : (form.getFieldValue('result') as OrderResult | undefined);
  const appliedPrice = useRef(startShop !== undefined && startResult !== undefined ? `${startShop}:${startResult}` : '');
  useEffect(() => {
    if (price === undefined) return;
    const pair = `${userId}:${result}`;
    if (!mayOverride || pair !== appliedPrice.current) {
      appliedPrice.current = pair;
      if (form.getFieldValue('amount') !== fenToYuan(price)) form.setFieldValue('amount', fenToYuan(price));
    }
  }, [form, mayOverride, price, result, userId]);

  // "Public" starts from the chosen shop's default (a new shop on an edited order too).
  const appliedShop = useRef(startShop ?? null);
  const shopDefault = prices.data?.userId === userId ? prices.data?.ifPublic : undefined;
  useEffect(() => {
    if (shopDefault === undefined || userId === appliedShop.current) return;
    appliedShop.current = userId;
    form.setFieldValue('ifPublic', shopDefault);
  }, [form, shopDefault, userId]);

  // Target history: looked up once the chat ID or MAC has rested; it proposes
  // "changed MAC" on a new order until the inspector picks a value themselves. It never blocks saving.
  const history = useTargetHistory(Form.useWatch('objWechat', form), Form.useWatch('mac', form), order?.id);
  const ifChangedMac = Form.useWatch('ifChangedMac', form);
  const changedMacPicked = useRef(false);
  const proposal = history.proposal;
  // The proposal travels with the values (a hidden field), so whoever submits sends it.
  useEffect(() => {
    if (form.getFieldValue('changedMacProposed') !== (proposal ?? undefined))
      form.setFieldValue('changedMacProposed', proposal ?? undefined);
  }, [form, proposal]);
  useEffect(() => {
    if (editing || proposal === null || changedMacPicked.current) return;
    if (form.getFieldValue('ifChangedMac') !== proposal) form.setFieldValue('ifChangedMac', proposal);
  }, [editing, form, proposal]);
  const proposalExtra =
    proposal === null ? undefined : (
      <span data-testid="history-proposal" data-proposal={proposal}>
        {proposal === 1 ? t('history.proposed.on', { mac: history.data?.summary.previousMac ?? '' }) : t('history.proposed.off')}
        {ifChangedMac !== undefined && ifChangedMac !== proposal ? (
          <Typography.Text type="warning" style={{ display: 'block' }} data-testid="history-proposal-overridden">
            {t('history.proposed.overridden')}
          </Typography.Text>
        ) : null}
      </span>
    );

  // Names of the people the form starts with, for pickers whose search page may not list them.
  const knownNames = new Map<number, string>();
  if (me) knownNames.set(me.id, userLabel(me.nickname, me.username));
  if (order) {
    if (order.inspectorId !== null && order.inspectorName !== null) knownNames.set(order.inspectorId, order.inspectorName);
    if (order.userId !== null && order.userName !== null) knownNames.set(order.userId, order.userName);
  }
  const labelRender = ({ label, value }: { label?: ReactNode; value: string | number }) =>
    label !== undefined && label !== null && label !== value ? label : (knownNames.get(Number(value)) ?? label ?? value);

  const required = (label: string) => ({ required: true, message: t('form.required', { label }) });
  const requiredText = (label: string) => ({ ...required(label), whitespace: true });
  const inputPlaceholder = (label: string) => t('search.placeholder.input', { label });
  const selectPlaceholder = (label: string) => t('search.placeholder.select', { label });

  const amountExtra = (() => {
    if (userId === undefined || userId === null || result === undefined || result === null) return t('orderForm.amount.pending');
    if (prices.isFetching && price === undefined) return t('orderForm.amount.loading');
    if (price === undefined) return undefined;
    if (!mayOverride) return t('orderForm.amount.auto');
    const differs = amount === null || amount === undefined || yuanToFen(amount) !== price;
    return (
      <span data-testid="order-form-price">
        {t('orderForm.amount.price', { price: formatMoney(price, i18n.language) })}
        {differs ? (
          <Button type="link" size="small" onClick={() => form.setFieldValue('amount', fenToYuan(price))}>
            {t('orderForm.amount.usePrice')}
          </Button>
        ) : null}
      </span>
    );
  })();

  return (
    <>
      <Form.Item name="changedMacProposed" hidden>
        <Input />
      </Form.Item>
      <Section variant={variant} title={t('orderForm.section.target')} testId="order-form-section-target">
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="objWechat" label={t('order.field.objWechat')} rules={[requiredText(t('order.field.objWechat'))]}>
              <Input
                count={charLimit(ORDER_TEXT_MAX.objWechat)}
                placeholder={inputPlaceholder(t('order.field.objWechat'))}
                data-testid="order-form-objWechat"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="objWechatName" label={t('order.field.objWechatName')} rules={[requiredText(t('order.field.objWechatName'))]}>
              <Input
                count={charLimit(ORDER_TEXT_MAX.objWechatName)}
                placeholder={inputPlaceholder(t('order.field.objWechatName'))}
                data-testid="order-form-objWechatName"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="objClientName" label={t('order.field.objClientName')} rules={[requiredText(t('order.field.objClientName'))]}>
              <Input
                count={charLimit(ORDER_TEXT_MAX.objClientName)}
                placeholder={inputPlaceholder(t('order.field.objClientName'))}
                data-testid="order-form-objClientName"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="gameName" label={t('order.field.gameName')} rules={[required(t('order.field.gameName'))]}>
              <DictSelect
                type={ORDER_DICTS.game}
                placeholder={selectPlaceholder(t('order.field.gameName'))}
                data-testid="order-form-gameName"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="mac"
              label={t('order.field.mac')}
              rules={[
                requiredText(t('order.field.mac')),
                {
                  validator: (_, value: unknown) =>
                    typeof value !== 'string' || value.trim() === '' || normalizeMac(value) !== null
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('orderForm.mac.invalid'))),
                },
              ]}
            >
              <Input count={charLimit(32)} placeholder={t('orderForm.mac.placeholder')} data-testid="order-form-mac" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="ifChangedMac" label={t('order.field.ifChangedMac')} extra={proposalExtra}>
              <Radio.Group
                options={changedMacOptions}
                optionType="button"
                onChange={() => {
                  changedMacPicked.current = true;
                }}
                data-testid="order-form-ifChangedMac"
              />
            </Form.Item>
          </Col>
        </Row>
        <TargetHistoryPanel history={history.data} loading={history.loading} />
      </Section>
      <Section variant={variant} title={t('orderForm.section.detection')} testId="order-form-section-detection">
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item
              name="installationTime"
              label={t('order.field.installationTime')}
              rules={[required(t('order.field.installationTime'))]}
            >
              <DatePicker
                showTime
                style={{ width: '100%' }}
                placeholder={selectPlaceholder(t('order.field.installationTime'))}
                data-testid="order-form-installationTime"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="result" label={t('order.field.result')} rules={[required(t('order.field.result'))]}>
              <DictSelect
                type={ORDER_DICTS.result}
                numeric
                tags
                placeholder={selectPlaceholder(t('order.field.result'))}
                data-testid="order-form-result"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="inspectorId"
              label={t('order.field.inspectorId')}
              rules={[required(t('order.field.inspectorId'))]}
              extra={mayPickInspector ? undefined : t('orderForm.inspector.locked')}
            >
              <UserSelect
                roleName="inspector"
                disabled={!mayPickInspector}
                allowClear={mayPickInspector}
                labelRender={labelRender}
                placeholder={selectPlaceholder(t('order.field.inspectorId'))}
                data-testid="order-form-inspectorId"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="userId" label={t('order.field.userId')} rules={[required(t('order.field.userId'))]}>
              <UserSelect
                roleName="shop"
                labelRender={labelRender}
                placeholder={selectPlaceholder(t('order.field.userId'))}
                data-testid="order-form-userId"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="amount" label={t('order.field.amount')} rules={[required(t('order.field.amount'))]} extra={amountExtra}>
              <MoneyInput readOnly={!mayOverride} placeholder="0.00" data-testid="order-form-amount" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="ifPublic" label={t('order.field.ifPublic')} tooltip={t('orderForm.ifPublic.help')}>
              <Radio.Group options={publicOptions} optionType="button" data-testid="order-form-ifPublic" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="description" label={t('order.field.description')}>
              <Input.TextArea rows={3} count={charLimit(ORDER_TEXT_MAX.description)} showCount data-testid="order-form-description" />
            </Form.Item>
          </Col>
        </Row>
      </Section>
      <Section variant={variant} title={t('orderForm.section.images')} testId="order-form-section-images">
        <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
          {t('orderForm.images.help', { max: ORDER_IMAGES_MAX })}
        </Typography.Paragraph>
        {IMAGE_FIELDS.map(([name, label, getToken]) => (
          <Form.Item
            key={name}
            name={name}
            label={t(label)}
            rules={[
              {
                validator: () =>
                  uploadingFields.current.has(name) ? Promise.reject(new Error(t('orderForm.images.busy'))) : Promise.resolve(),
              },
            ]}
          >
            <ImageUploader getToken={getToken} multiple maxCount={ORDER_IMAGES_MAX} onUploadingChange={uploadingChange[name]} />
          </Form.Item>
        ))}
      </Section>
    </>
  );
}
