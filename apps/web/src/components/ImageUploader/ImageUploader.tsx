import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LoadingOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Image, message, Tooltip, Upload } from 'antd';
import type { UploadFile, UploadProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ScreenMessageKey } from '../../locales/screens/zh-CN.ts';
import { sdkConfigFor, type Config } from './sdk-config.ts';
import {
  describeUploadError,
  AVATAR_ACCEPT,
  IMAGE_ACCEPT,
  isTypeRefusal,
  looksLikeAvatar,
  looksLikeImage,
  tokenStillValid,
  uploadImage,
  type GetUploadToken,
  type UploadTicket,
} from './upload-image.ts';
import { formatImageList, parseImageList } from './value.ts';

/** The widget's strings live in the app's locale files (locales/screens/*.ts) under `upload.image.*`. */
export type UploaderMessageKey = Extract<ScreenMessageKey, `upload.image.${string}`>;

export interface ImageUploaderProps {
  /** Comma-separated image URLs (antd Form passes it). */
  value?: string;
  onChange?: (value: string) => void;
  /** Gets `{uploadToken, key}` from the server (GET /api/admin/upload/token). */
  getToken: GetUploadToken;
  /** SDK settings over the SDK defaults (docs/product.md "The back office") and the server's upload target. */
  uploadConfig?: Config;
  /** Several files at once (default true). */
  multiple?: boolean;
  /** At most this many images in the value. */
  maxCount?: number;
  disabled?: boolean;
  id?: string;
  /** Told whenever an upload starts or the last one ends, so a form can wait for it. */
  onUploadingChange?: (uploading: boolean) => void;
  /** Which files the picker offers and the first filter lets through: any image (default), or an avatar's types (decision 0062). */
  accept?: 'image' | 'avatar';
}

/** Spec §4 "Image upload": idle → uploading (progress 0 → 1) → done (url set) or failed. */
export type UploadState = 'idle' | 'uploading' | 'done' | 'failed';

interface PendingItem {
  uid: string;
  file: File;
  state: Exclude<UploadState, 'idle' | 'done'>;
  /** 0 → 1. */
  progress: number;
  /** The key the server gave this file; a retry asks for the same key so the SDK resumes. */
  ticket?: UploadTicket;
  error?: string;
  /** A local thumbnail while the file has no URL yet. */
  previewUrl: string;
}

const urlUid = (url: string, index: number) => `url-${index}-${url}`;

/**
 * The image uploader widget: a picture-card list whose value is a comma-separated
 * list of URLs, a button "选择图片上传" ("上传中..." while sending), preview and remove.
 * Files go straight from the browser to the upload host with the provider's SDK.
 */
export function ImageUploader({
  value,
  onChange,
  getToken,
  uploadConfig,
  multiple = true,
  maxCount,
  disabled = false,
  id,
  onUploadingChange,
  accept = 'image',
}: ImageUploaderProps) {
  const { t } = useTranslation();
  const text = useCallback(
    // The keys are checked by UploaderMessageKey; `{{mb}}` is the one parameter, filled where used.
    (key: UploaderMessageKey, params?: Record<string, string | number>) => (t as (key: string, params?: object) => string)(key, params),
    [t],
  );
  const [messageApi, contextHolder] = message.useMessage();
  const [pending, setPending] = useState<PendingItem[]>([]);
  const [preview, setPreview] = useState<string | null>(null);
  const urls = useMemo(() => parseImageList(value), [value]);

  // The latest value, also between two completions in the same tick (before a re-render).
  const valueRef = useRef(urls);
  useEffect(() => {
    valueRef.current = urls;
  }, [urls]);
  const cancels = useRef(new Map<string, () => void>());
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const running = cancels.current;
    const objectUrls = previews.current;
    return () => {
      for (const cancel of running.values()) cancel();
      for (const url of objectUrls) URL.revokeObjectURL(url);
    };
  }, []);

  const update = useCallback((uid: string, patch: Partial<PendingItem>) => {
    setPending((items) => items.map((item) => (item.uid === uid ? { ...item, ...patch } : item)));
  }, []);

  const drop = useCallback((uid: string) => {
    cancels.current.get(uid)?.();
    cancels.current.delete(uid);
    setPending((items) => {
      const item = items.find((i) => i.uid === uid);
      if (item) {
        URL.revokeObjectURL(item.previewUrl);
        previews.current.delete(item.previewUrl);
      }
      return items.filter((i) => i.uid !== uid);
    });
  }, []);

  const commit = useCallback(
    (next: string[]) => {
      valueRef.current = next;
      onChange?.(formatImageList(next));
    },
    [onChange],
  );

  /** What a file of the wrong type is told: by the widget's filter on its name, or by the host on its bytes. */
  const wrongType = accept === 'avatar' ? 'upload.image.notAvatar' : 'upload.image.notImage';

  const fail = useCallback(
    (uid: string, detail: string, toast: string) => {
      update(uid, { state: 'failed', error: detail });
      void messageApi.error(toast);
    },
    [messageApi, update],
  );

  /** One upload: token (the same key again on a retry), then the SDK. */
  const run = useCallback(
    async (uid: string, file: File | undefined, previous?: UploadTicket) => {
      if (file === undefined) {
        void messageApi.warning(text('upload.image.noFile'));
        return;
      }
      update(uid, { state: 'uploading', progress: 0, error: undefined });
      let ticket: UploadTicket;
      try {
        ticket =
          previous !== undefined && tokenStillValid(previous, Date.now())
            ? previous
            : await getToken(previous !== undefined ? { key: previous.key } : {});
      } catch {
        fail(uid, text('upload.image.tokenFailed'), text('upload.image.tokenFailed'));
        return;
      }
      update(uid, { ticket });
      if (ticket.maxBytes !== undefined && file.size > ticket.maxBytes) {
        const detail = text('upload.image.tooLarge', { mb: Math.floor(ticket.maxBytes / 1024 / 1024) });
        fail(uid, detail, text('upload.image.failed') + detail);
        return;
      }
      const config: Config = { ...sdkConfigFor(ticket.target, window.location), ...uploadConfig };
      const cancel = uploadImage(file, ticket, config, {
        onProgress: (progress) => update(uid, { progress }),
        onDone: (result) => {
          cancels.current.delete(uid);
          commit([...valueRef.current, result.url]);
          drop(uid);
        },
        onError: (error) => {
          cancels.current.delete(uid);
          if (isTypeRefusal(error)) {
            // Not an image whatever its name: told like any non-image, and no broken thumbnail stays.
            drop(uid);
            void messageApi.error(text(wrongType));
            return;
          }
          const detail = describeUploadError(error);
          fail(uid, detail, text('upload.image.failed') + detail);
        },
      });
      cancels.current.set(uid, cancel);
    },
    [commit, drop, fail, getToken, messageApi, text, update, uploadConfig, wrongType],
  );

  const room = maxCount === undefined ? Infinity : maxCount - urls.length - pending.length;

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (accept === 'avatar' ? !looksLikeAvatar(file) : !looksLikeImage(file)) {
      void messageApi.error(text(wrongType));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file }) => {
    if (!(file instanceof File)) {
      void messageApi.warning(text('upload.image.noFile'));
      return;
    }
    const uid = (file as File & { uid?: string }).uid ?? `${Date.now()}-${Math.random()}`;
    const previewUrl = URL.createObjectURL(file);
    previews.current.add(previewUrl);
    setPending((items) => [...items, { uid, file, state: 'uploading', progress: 0, previewUrl }]);
    void run(uid, file);
  };

  const fileList: UploadFile[] = [
    ...urls.map((url, index): UploadFile => ({
      uid: urlUid(url, index),
      // A signed link ends in `?e=…&token=…` (decision 0082): the name is the path's last part.
      name: decodeURIComponent((url.split(/[?#]/)[0] ?? url).split('/').pop() ?? url),
      status: 'done',
      url,
      thumbUrl: url,
    })),
    ...pending.map((item): UploadFile => ({
      uid: item.uid,
      name: item.file.name,
      status: item.state === 'uploading' ? 'uploading' : 'error',
      percent: Math.round(item.progress * 100),
      thumbUrl: item.previewUrl,
      response: item.error,
    })),
  ];

  const onRemove: UploadProps['onRemove'] = (file) => {
    if (file.uid.startsWith('url-')) {
      const index = fileList.findIndex((f) => f.uid === file.uid);
      commit(valueRef.current.filter((_, i) => i !== index));
    } else {
      drop(file.uid);
    }
    return false;
  };

  const uploading = pending.some((item) => item.state === 'uploading');
  useEffect(() => {
    onUploadingChange?.(uploading);
  }, [uploading, onUploadingChange]);

  return (
    <div id={id} style={{ maxWidth: 500 }} data-upload-state={uploading ? 'uploading' : 'idle'}>
      {contextHolder}
      <Upload
        listType="picture-card"
        accept={accept === 'avatar' ? AVATAR_ACCEPT : IMAGE_ACCEPT}
        multiple={multiple}
        disabled={disabled}
        fileList={fileList}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onRemove={onRemove}
        onPreview={(file) => setPreview(file.url ?? file.thumbUrl ?? null)}
        showUploadList={{ showPreviewIcon: true, showRemoveIcon: !disabled, showDownloadIcon: false }}
        itemRender={(node, file) => {
          const item = pending.find((p) => p.uid === file.uid);
          if (item?.state !== 'failed') return node;
          return (
            <Tooltip title={`${text('upload.image.failed')}${item.error ?? ''}`}>
              <div style={{ position: 'relative', width: '100%', height: '100%' }}>
                {node}
                <Button
                  size="small"
                  icon={<ReloadOutlined />}
                  aria-label={text('upload.image.retry')}
                  style={{ position: 'absolute', left: 4, bottom: 4, zIndex: 2 }}
                  onClick={() => void run(item.uid, item.file, item.ticket)}
                >
                  {text('upload.image.retry')}
                </Button>
              </div>
            </Tooltip>
          );
        }}
      >
        {room > 0 && !disabled ? (
          <button type="button" style={{ border: 0, background: 'none', cursor: 'pointer' }} disabled={disabled}>
            {uploading ? <LoadingOutlined /> : <PlusOutlined />}
            <div style={{ marginTop: 8 }}>{uploading ? text('upload.image.uploading') : text('upload.image.select')}</div>
          </button>
        ) : null}
      </Upload>
      {preview !== null ? (
        <Image
          style={{ display: 'none' }}
          src={preview}
          alt={text('upload.image.preview')}
          preview={{ open: true, src: preview, onOpenChange: (open) => !open && setPreview(null) }}
        />
      ) : null}
    </div>
  );
}
