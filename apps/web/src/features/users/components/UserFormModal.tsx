import { Col, Divider, Form, Input, Radio, Row, Select } from 'antd';
import type { UserItem } from '@clearplay/contract';
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN, fenToYuan, yuanToFen } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal.tsx';
import { MoneyInput } from '../../../components/Money.tsx';
import { useDictData } from '../../../lib/dicts.ts';
import { roleDescription } from '../../../lib/role-description.ts';
import { useCreateUser, useRoleOptions, useUpdateUser } from '../api/users.ts';
import { charLimit } from '../../../lib/char-limit.ts';

interface UserFormValues {
  username: string;
  password: string;
  nickname: string;
  roleId: number;
  wechat: string;
  phone: string;
  ifPublic: 0 | 1;
  status: 0 | 1;
  /** In yuan while editing; fen on the wire. */
  defaultPrice: number;
  defaultPriceCheat: number;
  defaultPriceSuspect: number;
  defaultPriceNotPass: number;
}

const PRICE_FIELDS = [
  ['defaultPrice', 'user.field.defaultPrice'],
  ['defaultPriceCheat', 'user.field.defaultPriceCheat'],
  ['defaultPriceSuspect', 'user.field.defaultPriceSuspect'],
  ['defaultPriceNotPass', 'user.field.defaultPriceNotPass'],
] as const;

/** Create (user === null) or edit a user: its fields with their rules (docs/product.md "The back office"). */
export function UserFormModal({ open, user, onClose }: { open: boolean; user: UserItem | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const roles = useRoleOptions();
  const create = useCreateUser();
  const update = useUpdateUser();
  const statusOptions = useDictData('common_status').map((e) => ({ value: Number(e.value), label: e.label }));
  const publicOptions = useDictData('public_private').map((e) => ({ value: Number(e.value), label: e.label }));
  const editing = user !== null;
  const required = (label: string) => ({ required: true, whitespace: true, message: t('form.required', { label }) });

  const initialValues: Partial<UserFormValues> = user
    ? {
        nickname: user.nickname,
        roleId: user.roleId,
        wechat: user.wechat,
        phone: user.phone,
        ifPublic: user.ifPublic,
        status: user.status,
        defaultPrice: fenToYuan(user.defaultPrice) ?? 0,
        defaultPriceCheat: fenToYuan(user.defaultPriceCheat) ?? 0,
        defaultPriceSuspect: fenToYuan(user.defaultPriceSuspect) ?? 0,
        defaultPriceNotPass: fenToYuan(user.defaultPriceNotPass) ?? 0,
      }
    : { ifPublic: 0, status: 1 };

  const submit = (values: UserFormValues) => {
    const common = {
      nickname: values.nickname.trim(),
      roleId: values.roleId,
      wechat: values.wechat.trim(),
      phone: values.phone.trim(),
      ifPublic: values.ifPublic,
      status: values.status,
      defaultPrice: yuanToFen(values.defaultPrice),
      defaultPriceCheat: yuanToFen(values.defaultPriceCheat),
      defaultPriceSuspect: yuanToFen(values.defaultPriceSuspect),
      defaultPriceNotPass: yuanToFen(values.defaultPriceNotPass),
    };
    return editing
      ? update.mutateAsync({ id: user.id, ...common })
      : create.mutateAsync({ username: values.username.trim(), password: values.password, ...common });
  };

  return (
    <FormModal<UserFormValues>
      open={open}
      title={editing ? t('user.edit.title', { name: user.username }) : t('user.create.title')}
      onClose={onClose}
      onSubmit={submit}
      successMessage={editing ? t('feedback.update.success') : t('feedback.create.success')}
      initialValues={initialValues}
      width={720}
      layout="vertical"
      data-testid="user-form"
    >
      <Row gutter={16}>
        {editing ? null : (
          <>
            <Col xs={24} sm={12}>
              <Form.Item
                name="username"
                label={t('user.field.username')}
                rules={[
                  required(t('user.field.username')),
                  {
                    min: USERNAME_MIN,
                    max: USERNAME_MAX,
                    message: t('form.length', { label: t('user.field.username'), min: USERNAME_MIN, max: USERNAME_MAX }),
                  },
                  { pattern: /^\S+$/, message: t('form.noSpaces', { label: t('user.field.username') }) },
                ]}
              >
                <Input autoComplete="off" count={charLimit(USERNAME_MAX)} showCount data-testid="user-form-username" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item
                name="password"
                label={t('user.field.password')}
                rules={[
                  { required: true, message: t('form.required', { label: t('user.field.password') }) },
                  {
                    min: PASSWORD_MIN,
                    max: PASSWORD_MAX,
                    message: t('form.length', { label: t('user.field.password'), min: PASSWORD_MIN, max: PASSWORD_MAX }),
                  },
                ]}
              >
                <Input.Password autoComplete="new-password" count={charLimit(PASSWORD_MAX)} data-testid="user-form-password" />
              </Form.Item>
            </Col>
          </>
        )}
        <Col xs={24} sm={12}>
          <Form.Item name="nickname" label={t('user.field.nickname')} rules={[required(t('user.field.nickname')), { max: 50 }]}>
            <Input count={charLimit(50)} data-testid="user-form-nickname" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="roleId"
            label={t('user.field.role')}
            rules={[{ required: true, message: t('form.required', { label: t('user.field.role') }) }]}
          >
            <Select
              loading={roles.isLoading}
              options={(roles.data ?? []).map((role) => ({
                value: role.id,
                label: `${role.name} · ${roleDescription(role, i18n.language)}`,
              }))}
              placeholder={t('search.placeholder.select', { label: t('user.field.role') })}
              data-testid="user-form-role"
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="wechat" label={t('user.field.wechat')} rules={[required(t('user.field.wechat')), { max: 64 }]}>
            <Input count={charLimit(64)} data-testid="user-form-wechat" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="phone"
            label={t('user.field.phone')}
            rules={[required(t('user.field.phone')), { pattern: /^[0-9+\-() ]{1,32}$/, message: t('form.phone') }]}
          >
            <Input count={charLimit(32)} data-testid="user-form-phone" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="ifPublic" label={t('user.field.ifPublic')} tooltip={t('user.field.ifPublic.help')}>
            <Radio.Group options={publicOptions} optionType="button" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="status" label={t('user.field.status')}>
            <Radio.Group options={statusOptions} optionType="button" />
          </Form.Item>
        </Col>
      </Row>
      <Divider titlePlacement="start" plain style={{ marginTop: 4 }}>
        {t('user.prices')}
      </Divider>
      <Row gutter={16}>
        {PRICE_FIELDS.map(([name, label]) => (
          <Col xs={24} sm={12} key={name}>
            <Form.Item name={name} label={t(label)} rules={[{ required: true, message: t('form.required', { label: t(label) }) }]}>
              <MoneyInput data-testid={`user-form-${name}`} placeholder="0.00" />
            </Form.Item>
          </Col>
        ))}
      </Row>
    </FormModal>
  );
}
