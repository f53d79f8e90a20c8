import { useEffect } from 'react';
import { App, Button, Card, Col, Form, Input, Row, Select } from 'antd';
import type { AccountUpdateBody } from '@clearplay/contract';
import { PASSWORD_MAX, PASSWORD_MIN } from '@clearplay/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { userStore } from '../../lib/current-user.ts';
import { LOCALE_OPTIONS, setLocale } from '../../lib/i18n.ts';
import { useChangePassword, useProfile, useUpdateProfile } from './api/account.ts';
import { SecondFactorCard } from './components/SecondFactorCard.tsx';

const BROWSER = 'browser';

interface ProfileValues {
  nickname: string;
  wechat: string;
  phone: string;
  locale: 'zh-CN' | 'en-US' | typeof BROWSER;
}

/**
 * User settings (`/user/setting`): my nickname (required), chat ID and phone (optional,
 * decision 0084) and language (saved on the
 * server, applied at every sign-in); my password, the current one required — every other
 * session of mine then ends, this one stays; two-step verification (decision 0091).
 */
export default function UserSettingPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { data: profile } = useProfile();
  const update = useUpdateProfile();
  const change = useChangePassword();
  const [profileForm] = Form.useForm<ProfileValues>();
  const [passwordForm] = Form.useForm<{ oldPassword: string; newPassword: string; confirm: string }>();

  useEffect(() => {
    if (profile)
      profileForm.setFieldsValue({
        nickname: profile.nickname,
        wechat: profile.wechat,
        phone: profile.phone,
        locale: profile.locale ?? BROWSER,
      });
  }, [profile, profileForm]);

  const saveProfile = async (values: ProfileValues) => {
    const body: AccountUpdateBody = {
      nickname: values.nickname,
      wechat: values.wechat ?? '',
      phone: values.phone ?? '',
      locale: values.locale === BROWSER ? null : values.locale,
    };
    const saved = await update.mutateAsync(body).catch(() => null);
    if (saved === null) return;
    const current = userStore.get();
    if (current !== null) userStore.set({ ...current, nickname: saved.nickname, wechat: saved.wechat, phone: saved.phone });
    if (saved.locale !== null && saved.locale !== i18n.language) {
      // Server texts on screen (messages, ledger remarks) are fetched again in the new language.
      await setLocale(saved.locale);
      void queryClient.invalidateQueries();
    }
    void message.success(i18n.t('account.saved'));
  };

  const savePassword = async (values: { oldPassword: string; newPassword: string }) => {
    const result = await change.mutateAsync({ oldPassword: values.oldPassword, newPassword: values.newPassword }).catch(() => null);
    if (result === null) return;
    passwordForm.resetFields();
    void message.success(t('account.password.changed', { count: result.sessionsEnded }));
  };

  const required = (label: string) => ({ required: true, whitespace: true, message: t('form.required', { label }) });

  return (
    <>
      <PageHeader description={t('account.setting.description')} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('account.profile')}>
            <Form form={profileForm} layout="vertical" onFinish={(v) => void saveProfile(v)} data-testid="account-profile-form">
              <Form.Item name="nickname" label={t('account.field.nickname')} rules={[required(t('account.field.nickname')), { max: 50 }]}>
                <Input data-testid="account-nickname" />
              </Form.Item>
              {/* Chat ID and phone are optional here: a person saves their own settings with the data they have (decision 0084). */}
              <Form.Item name="wechat" label={t('account.field.wechat')} rules={[{ max: 64 }]}>
                <Input data-testid="account-wechat" />
              </Form.Item>
              <Form.Item
                name="phone"
                label={t('account.field.phone')}
                rules={[{ pattern: /^[0-9+\-() ]{0,32}$/, message: t('account.phone.invalid') }]}
              >
                <Input data-testid="account-phone" />
              </Form.Item>
              <Form.Item name="locale" label={t('account.field.locale')}>
                <Select
                  data-testid="account-locale"
                  options={[
                    { value: BROWSER, label: t('account.locale.browser') },
                    ...LOCALE_OPTIONS.map((o) => ({ value: o.value, label: o.label })),
                  ]}
                />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={update.isPending} data-testid="account-save">
                {t('account.save')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('account.password')}>
            <Form form={passwordForm} layout="vertical" onFinish={(v) => void savePassword(v)} data-testid="account-password-form">
              <Form.Item
                name="oldPassword"
                label={t('account.password.old')}
                rules={[{ required: true, message: t('form.required', { label: t('account.password.old') }) }]}
              >
                <Input.Password data-testid="account-old-password" autoComplete="current-password" />
              </Form.Item>
              <Form.Item
                name="newPassword"
                label={t('account.password.new')}
                rules={[
                  { required: true, message: t('form.required', { label: t('account.password.new') }) },
                  {
                    min: PASSWORD_MIN,
                    max: PASSWORD_MAX,
                    message: t('form.length', { label: t('account.password.new'), min: PASSWORD_MIN, max: PASSWORD_MAX }),
                  },
                ]}
              >
                <Input.Password data-testid="account-new-password" autoComplete="new-password" />
              </Form.Item>
              <Form.Item
                name="confirm"
                label={t('account.password.confirm')}
                dependencies={['newPassword']}
                rules={[
                  { required: true, message: t('form.required', { label: t('account.password.confirm') }) },
                  ({ getFieldValue }) => ({
                    validator: (_, value) =>
                      value === getFieldValue('newPassword')
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('account.password.mismatch'))),
                  }),
                ]}
              >
                <Input.Password data-testid="account-confirm-password" autoComplete="new-password" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="account-password-save">
                {t('account.password.save')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <SecondFactorCard />
        </Col>
      </Row>
    </>
  );
}
