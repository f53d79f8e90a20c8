import { lazy, Suspense } from 'react';
import { Form, Input, Skeleton, Switch } from 'antd';
import type { AnnouncementAddBody } from '@clearplay/contract';
import { ANNOUNCEMENT_TITLE_MAX, ANNOUNCEMENT_TYPE_DICT } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { DictSelect } from '../../../components/DictSelect.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { useAddAnnouncement } from '../api/announcements.ts';
import { charLimit } from '../../../lib/char-limit.ts';

/** Tiptap is loaded only when the publish form opens (a chunk of its own). */
const RichTextEditor = lazy(() => import('./RichTextEditor.tsx'));

/** The form item's value and onChange reach the editor through this (Suspense would not pass them on). */
function Editor(props: { value?: string; onChange?: (html: string) => void }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 5 }} />}>
      <RichTextEditor {...props} />
    </Suspense>
  );
}

interface Values {
  title: string;
  type: string;
  content: string;
  pinned: boolean;
}

/** Publish an announcement (announcement:create): title, type, pinned and rich-text content. */
export function PublishAnnouncementModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const add = useAddAnnouncement();
  const submit = (values: Values) => {
    const body: AnnouncementAddBody = {
      title: values.title,
      type: values.type,
      content: values.content ?? '',
      pinned: values.pinned ? 1 : 0,
    };
    return add.mutateAsync(body);
  };
  return (
    <FormModal<Values>
      open={open}
      title={t('announcement.publish')}
      onClose={onClose}
      onSubmit={submit}
      successMessage={t('announcement.published')}
      initialValues={{ type: 'notice', pinned: false, content: '' }}
      layout="vertical"
      width={760}
      okText={t('announcement.publish.ok')}
      data-testid="announcement-publish-modal"
    >
      <Form.Item
        name="title"
        label={t('announcement.field.title')}
        rules={[
          { required: true, whitespace: true, message: t('form.required', { label: t('announcement.field.title') }) },
          { max: ANNOUNCEMENT_TITLE_MAX, message: t('announcement.titleMax', { max: ANNOUNCEMENT_TITLE_MAX }) },
        ]}
      >
        <Input count={charLimit(ANNOUNCEMENT_TITLE_MAX)} showCount data-testid="announcement-title" />
      </Form.Item>
      <Form.Item
        name="type"
        label={t('announcement.field.type')}
        rules={[{ required: true, message: t('form.required', { label: t('announcement.field.type') }) }]}
      >
        <DictSelect type={ANNOUNCEMENT_TYPE_DICT} allowClear={false} data-testid="announcement-type" />
      </Form.Item>
      <Form.Item name="pinned" label={t('announcement.field.pinned')} valuePropName="checked">
        <Switch data-testid="announcement-pinned" />
      </Form.Item>
      <Form.Item
        name="content"
        label={t('announcement.field.content')}
        rules={[
          {
            validator: (_, value: string | undefined) =>
              value && value.replace(/<[^>]*>/g, '').trim() !== ''
                ? Promise.resolve()
                : Promise.reject(new Error(t('form.required', { label: t('announcement.field.content') }))),
          },
        ]}
      >
        <Editor />
      </Form.Item>
    </FormModal>
  );
}
