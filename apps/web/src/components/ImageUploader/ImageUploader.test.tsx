import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UploadTokenData } from '@clearplay/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../lib/api-client.ts';
import { setLocale } from '../../lib/i18n.ts';
import { serveApi, type ApiAnswer, type ApiCall } from '../../test/fake-api.ts';
import { pngFile, startUploadHost, stored, type FakeUploadHost, type HostAnswer } from '../../test/fake-upload-host.ts';
import { renderInApp } from '../../test/render.tsx';
import { ImageUploader, type ImageUploaderProps } from './index.ts';

const MB = 1024 * 1024;
/** The tokens' deadline (Unix seconds): an hour from the test's start. */
const DEADLINE = Math.floor(Date.now() / 1000) + 3600;
let host: FakeUploadHost;
let keys = 0;

beforeEach(async () => {
  host = await startUploadHost();
});
afterEach(async () => {
  await host.close();
});

/** The provider's token form: `<accessKey>:<sign>:<urlsafe base64 of the put policy>` (the SDK reads the scope). */
const tokenFor = (key: string) =>
  `ak-test:c2lnbg==:${Buffer.from(JSON.stringify({ scope: `evidence:${key}`, deadline: DEADLINE }))
    .toString('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')}`;

/** GET /api/admin/upload/token as the server answers it; `refuse` answers an error instead. */
function serveTokens({ maxBytes = 10 * MB, refuse = () => false }: { maxBytes?: number; refuse?: (call: ApiCall) => boolean } = {}) {
  return serveApi((call): ApiAnswer => {
    if (call.path !== '/api/admin/upload/token') return { status: 404, msg: 'not found', data: null };
    if (refuse(call)) return { status: 500, msg: 'token service unavailable', data: null };
    const key = call.query.get('key') ?? `evidence/cert/202611/${String((keys += 1)).padStart(32, '0')}`;
    const data: UploadTokenData = {
      uploadToken: tokenFor(key),
      key,
      deadline: DEADLINE,
      target: { provider: 'local', path: '/upload' },
      maxBytes,
    };
    return { status: 200, msg: 'ok', data };
  });
}

/** The uploader as a form field: its value kept by the form, shown for the test to read. */
function Field({ initial = '', ...props }: { initial?: string } & Partial<ImageUploaderProps>) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <ImageUploader
        value={value}
        onChange={setValue}
        getToken={({ key }) => api.get<UploadTokenData>('/admin/upload/token', { params: { purpose: 'cert', key }, quiet: true })}
        uploadConfig={{ uphost: host.uphost }}
        {...props}
      />
      <output aria-label="value">{value}</output>
    </>
  );
}

const value = () => screen.getByRole('status', { name: 'value' }).textContent;
const fileInput = (container: HTMLElement) => container.querySelector<HTMLInputElement>('input[type="file"]')!;
const items = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('.ant-upload-list-item')];

/** Holds the host's answers until `release()`: the time an upload takes, without waiting on a clock. */
function holdAnswers() {
  const waiting: Array<() => void> = [];
  host.answer = (upload) => new Promise<HostAnswer>((resolve) => waiting.push(() => resolve(stored(upload))));
  return {
    held: () => waiting.length,
    release: () => waiting.splice(0).forEach((answer) => answer()),
  };
}

describe('ImageUploader', () => {
  it('empty: offers to choose images, and has nothing in its list', () => {
    serveTokens();
    const { container } = renderInApp(<Field />);
    expect(screen.getByRole('button', { name: /选择图片上传/ })).toBeTruthy();
    expect(items(container)).toEqual([]);
    expect(fileInput(container).accept).toContain('image/png');
    expect(fileInput(container).multiple).toBe(true);
  });

  it('uploading, then done: the button says so while the host works, then the image is in the value', async () => {
    const api = serveTokens();
    const hold = holdAnswers();
    const { container, user } = renderInApp(<Field />);

    await user.upload(fileInput(container), pngFile('cert.png', 3000));
    await waitFor(() => expect(hold.held()).toBe(1));
    expect(screen.getByRole('button', { name: /上传中\.\.\./ })).toBeTruthy();
    expect(items(container)).toHaveLength(1);
    expect(items(container)[0]!.className).toContain('ant-upload-list-item-uploading');
    expect(within(items(container)[0]!).getByText('文件上传中')).toBeTruthy();
    expect(value()).toBe('');

    // what reached the host: the file's bytes with the token and key the server gave
    const [upload] = host.received;
    const [tokenCall] = api.calls;
    expect(tokenCall?.query.get('purpose')).toBe('cert');
    expect(upload).toMatchObject({ fname: 'cert.png', file: { name: 'cert.png', type: 'image/png' } });
    expect(upload!.file.bytes.length).toBe(3000);
    expect(upload!.token).toBe(tokenFor(upload!.key));

    hold.release();
    await waitFor(() => expect(value()).toBe(`/upload/files/${upload!.key}`));
    expect(screen.getByRole('button', { name: /选择图片上传/ })).toBeTruthy();
    expect(items(container)).toHaveLength(1);
    expect(items(container)[0]!.className).toContain('ant-upload-list-item-done');
    expect(container.querySelector('img')?.getAttribute('src')).toBe(`/upload/files/${upload!.key}`);
  });

  it('several files at once all land in the value', async () => {
    serveTokens();
    const { container, user } = renderInApp(<Field initial="/upload/files/old.png" />);
    await user.upload(fileInput(container), [pngFile('a.png'), pngFile('b.png')]);
    await waitFor(() => expect(value()?.split(',')).toHaveLength(3));
    expect(value()?.split(',')[0]).toBe('/upload/files/old.png');
    expect(host.received.map((u) => u.fname).sort()).toEqual(['a.png', 'b.png']);
    expect(new Set(host.received.map((u) => u.key)).size).toBe(2);
  });

  it('a text file named .png: the host refuses its bytes (403 limited mimeType); told like any non-image, in Chinese, and gone from the list', async () => {
    serveTokens();
    const { container, user } = renderInApp(<Field />);
    // named and typed as a PNG, but the content is not an image: the host looks at the bytes
    await user.upload(fileInput(container), new File(['not an image at all'], 'fake.png', { type: 'image/png' }));
    expect(await screen.findByText('只能上传图片（JPEG、PNG、GIF、WebP、BMP、AVIF、HEIC、TIFF）')).toBeTruthy();
    await waitFor(() => expect(items(container)).toEqual([])); // no broken thumbnail, nothing to retry
    expect(screen.queryByText(/limited mimeType|403/)).toBeNull();
    expect(screen.queryByRole('button', { name: /重\s*试/ })).toBeNull();
    expect(host.received).toHaveLength(1); // a refusal is not retried by the SDK
    expect(value()).toBe('');
    expect(screen.getByRole('button', { name: /选择图片上传/ })).toBeTruthy();
  });

  it('a text file named .png: in English, the English message for a non-image', async () => {
    await act(() => setLocale('en-US'));
    try {
      serveTokens();
      const { container, user } = renderInApp(<Field />);
      await user.upload(fileInput(container), new File(['not an image at all'], 'fake.png', { type: 'image/png' }));
      const message = 'Only images can be uploaded (JPEG, PNG, GIF, WebP, BMP, AVIF, HEIC, TIFF)';
      expect(await screen.findByText(message)).toBeTruthy();
      await waitFor(() => expect(items(container)).toEqual([]));
      expect(screen.queryByText(/limited mimeType|403/)).toBeNull();
      expect(host.received).toHaveLength(1);
    } finally {
      await act(() => setLocale('zh-CN'));
    }
  });

  it('an avatar whose bytes are not an image is told the avatar types, and leaves no thumbnail', async () => {
    serveTokens();
    const { container, user } = renderInApp(<Field accept="avatar" multiple={false} maxCount={1} />);
    await user.upload(fileInput(container), new File(['not an image at all'], 'me.png', { type: 'image/png' }));
    expect(await screen.findByText('头像只能是 JPEG、PNG、GIF 或 WebP 图片')).toBeTruthy();
    await waitFor(() => expect(items(container)).toEqual([]));
  });

  it('failed: another refusal of the host is told with its code and reason, and the image stays out of the value until retried', async () => {
    serveTokens();
    let refusals = 1;
    host.answer = (upload) => (refusals-- > 0 ? { status: 401, body: { error: 'expired token' } } : stored(upload));
    const { container, user } = renderInApp(<Field />);
    await user.upload(fileInput(container), pngFile('cert.png'));
    expect(await screen.findByText('上传失败：401 expired token')).toBeTruthy();
    await waitFor(() => expect(items(container)[0]!.className).toContain('ant-upload-list-item-error'));
    expect(host.received).toHaveLength(1); // a refusal is not retried by the SDK
    expect(value()).toBe('');
    expect(screen.getByRole('button', { name: /选择图片上传/ })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(value()).toMatch(/^\/upload\/files\/evidence\/cert\//));
    expect(items(container)).toHaveLength(1);
  });

  it('a token the server cannot give is told; retry asks again and uploads', async () => {
    let refusals = 1;
    const api = serveTokens({ refuse: () => refusals-- > 0 });
    const { container, user } = renderInApp(<Field />);
    await user.upload(fileInput(container), pngFile('cert.png'));
    expect(await screen.findByText('获取上传 token 失败')).toBeTruthy();
    await waitFor(() => expect(items(container)[0]!.className).toContain('ant-upload-list-item-error'));
    expect(host.received).toEqual([]);

    await user.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(value()).toMatch(/^\/upload\/files\/evidence\/cert\//));
    expect(api.calls.filter((c) => c.path === '/api/admin/upload/token')).toHaveLength(2);
    expect(host.received).toHaveLength(1);
    expect(items(container)).toHaveLength(1);
    expect(items(container)[0]!.className).toContain('ant-upload-list-item-done');
  });

  it('too big: refused before sending, with the limit the server gave', async () => {
    serveTokens({ maxBytes: 1 * MB });
    const { container, user } = renderInApp(<Field />);
    await user.upload(fileInput(container), pngFile('big.png', 1 * MB + 1));
    expect(await screen.findByText('上传失败：图片不能超过 1 MB')).toBeTruthy();
    await waitFor(() => expect(items(container)[0]!.className).toContain('ant-upload-list-item-error'));
    expect(host.received).toEqual([]);
    expect(value()).toBe('');
  });

  it('wrong type: a file that is not an image is refused at once, nothing is asked or sent', async () => {
    const api = serveTokens();
    // "All files" in the browser's picker: the `accept` filter does not hold the file back
    const { container, user } = renderInApp(<Field />, { user: userEvent.setup({ applyAccept: false }) });
    await user.upload(fileInput(container), new File(['a,b\n1,2'], 'orders.csv', { type: 'text/csv' }));
    expect(await screen.findByText('只能上传图片（JPEG、PNG、GIF、WebP、BMP、AVIF、HEIC、TIFF）')).toBeTruthy();
    expect(items(container)).toEqual([]);
    expect(api.calls).toEqual([]);
    expect(host.received).toEqual([]);
  });

  it('max count: the choose button goes once the value is full, and comes back when an image is removed', async () => {
    serveTokens();
    const { container, user } = renderInApp(<Field initial="/upload/files/one.png" maxCount={2} />);
    expect(screen.getByRole('button', { name: /选择图片上传/ })).toBeTruthy();

    await user.upload(fileInput(container), pngFile('two.png'));
    await waitFor(() => expect(value()?.split(',')).toHaveLength(2));
    expect(screen.queryByRole('button', { name: /选择图片上传/ })).toBeNull();

    await user.click(within(items(container)[0]!).getByRole('button', { name: /删除/ }));
    await waitFor(() => expect(value()).toBe(`/upload/files/${host.received[0]!.key}`));
    expect(screen.getByRole('button', { name: /选择图片上传/ })).toBeTruthy();
  });

  it('disabled: shows the images without a way to add or remove', () => {
    serveTokens();
    const { container } = renderInApp(<Field initial="/upload/files/one.png,/upload/files/two.png" disabled />);
    expect(items(container)).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /选择图片上传/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /删除/ })).toBeNull();
  });

  it('avatar: the picker offers JPEG, PNG, GIF and WebP only, and another image type is refused at once', async () => {
    const api = serveTokens();
    const { container, user } = renderInApp(<Field accept="avatar" multiple={false} maxCount={1} />, {
      user: userEvent.setup({ applyAccept: false }),
    });
    expect(fileInput(container).accept).toContain('image/webp');
    expect(fileInput(container).accept).not.toContain('image/bmp');
    await user.upload(
      fileInput(container),
      new File([new Uint8Array([0x42, 0x4d, 0, 0, 0, 0, 0, 0, 0, 0])], 'me.bmp', { type: 'image/bmp' }),
    );
    expect(await screen.findByText('头像只能是 JPEG、PNG、GIF 或 WebP 图片')).toBeTruthy();
    expect(api.calls).toEqual([]);
    expect(host.received).toEqual([]);

    await user.upload(fileInput(container), pngFile('me.png'));
    await waitFor(() => expect(value()).toMatch(/^\/upload\/files\//));
  });
});
