import { describe, expect, it } from 'vitest';
import screensEnUS from '../../locales/screens/en-US.ts';
import screensZhCN from '../../locales/screens/zh-CN.ts';
import { sdkConfigFor, SPEC_UPLOAD_CONFIG } from './sdk-config.ts';
import { describeUploadError, isTypeRefusal, looksLikeImage, tokenStillValid } from './upload-image.ts';
import { formatImageList, parseImageList } from './value.ts';

describe('value (comma-separated URLs)', () => {
  it('parses and formats, dropping empty entries and spaces', () => {
    expect(parseImageList(undefined)).toEqual([]);
    expect(parseImageList('')).toEqual([]);
    expect(parseImageList(' /a.png , ,https://x/b.jpg,')).toEqual(['/a.png', 'https://x/b.jpg']);
    expect(formatImageList(['/a.png', '', 'https://x/b.jpg'])).toBe('/a.png,https://x/b.jpg');
    expect(formatImageList(parseImageList('/a,/b'))).toBe('/a,/b');
  });
});

describe('SDK settings', () => {
  it('keep the provider SDK defaults: 4 MB chunks, 3 requests at a time, 3 retries, https', () => {
    expect(SPEC_UPLOAD_CONFIG).toEqual({ chunkSize: 4, concurrentRequestLimit: 3, retryCount: 3, forceDirect: false, upprotocol: 'https' });
  });

  it('point the SDK at the embedded host on the page origin, without provider statistics', () => {
    expect(sdkConfigFor({ provider: 'local', path: '/upload' }, { host: 'localhost:3000', protocol: 'http:' })).toEqual({
      ...SPEC_UPLOAD_CONFIG,
      uphost: 'localhost:3000/upload',
      upprotocol: 'http',
      disableStatisticsReport: true,
    });
    expect(sdkConfigFor({ provider: 'local', path: '/upload' }, { host: 'cp.example.com', protocol: 'https:' }).upprotocol).toBe('https');
  });

  it('use the provider region, or host discovery without one', () => {
    expect(sdkConfigFor({ provider: 'qiniu', region: 'z2', upprotocol: 'https' }, { host: 'x', protocol: 'http:' })).toEqual({
      ...SPEC_UPLOAD_CONFIG,
      region: 'z2',
    });
    const discovery = sdkConfigFor({ provider: 'qiniu', region: null, upprotocol: 'https' }, { host: 'x', protocol: 'http:' });
    expect(discovery).not.toHaveProperty('region');
    expect(discovery).not.toHaveProperty('uphost');
  });
});

describe('file filter', () => {
  it('accepts image types and refuses others, SVG included', () => {
    expect(looksLikeImage({ type: 'image/png', name: 'a.png' })).toBe(true);
    expect(looksLikeImage({ type: '', name: 'IMG_0001.HEIC' })).toBe(true);
    expect(looksLikeImage({ type: 'image/svg+xml', name: 'a.svg' })).toBe(false);
    expect(looksLikeImage({ type: 'text/plain', name: 'a.png.txt' })).toBe(false);
    expect(looksLikeImage({ type: '', name: 'notes' })).toBe(false);
  });
});

describe('tokens and errors', () => {
  it('reuses a token only while it has a minute left', () => {
    const ticket = { uploadToken: 't', key: 'k', deadline: 1_000 };
    expect(tokenStillValid(ticket, 900_000)).toBe(true);
    expect(tokenStillValid(ticket, 950_000)).toBe(false);
    expect(tokenStillValid({ uploadToken: 't', key: 'k' }, 0)).toBe(false);
  });

  it('describes request errors with code and server message, SDK errors with their name', () => {
    expect(
      describeUploadError({
        name: 'RequestError',
        message: 'xhr request failed, code: 403',
        code: 403,
        data: { error: 'limited mimeType' },
      }),
    ).toBe('403 limited mimeType');
    expect(describeUploadError({ name: 'RequestError', message: 'network error.', code: 0 })).toBe('0 network error');
    expect(describeUploadError({ name: 'InvalidToken', message: 'invalid token.' })).toBe('InvalidToken: invalid token.');
    expect(describeUploadError('boom')).toBe('boom');
  });

  it("knows the host's refusal of a file's type (the provider's 403 limited mimeType) from other refusals", () => {
    const refused = (code: number, error: string) => ({
      name: 'RequestError',
      message: `xhr request failed, code: ${code}`,
      code,
      data: { error },
    });
    expect(isTypeRefusal(refused(403, 'limited mimeType: this file type (unknown) is forbidden to upload'))).toBe(true);
    expect(isTypeRefusal(refused(403, 'limited mimeType: this file type (text/plain) is forbidden to upload'))).toBe(true);
    expect(isTypeRefusal(refused(403, "key doesn't match with scope"))).toBe(false);
    expect(isTypeRefusal(refused(401, 'expired token'))).toBe(false);
    expect(isTypeRefusal({ name: 'InvalidToken', message: 'invalid token.' })).toBe(false);
    expect(isTypeRefusal('limited mimeType')).toBe(false);
  });
});

describe('messages', () => {
  it('live in the app locale files with the spec texts, in both languages', () => {
    const keys = (messages: object) =>
      Object.keys(messages)
        .filter((key) => key.startsWith('upload.image.'))
        .sort();
    expect(keys(screensEnUS)).toEqual(keys(screensZhCN));
    expect(keys(screensZhCN)).toHaveLength(10);
    expect(screensZhCN['upload.image.select']).toBe('选择图片上传');
    expect(screensZhCN['upload.image.uploading']).toBe('上传中...');
    expect(screensZhCN['upload.image.noFile']).toBe('请选择文件');
    expect(screensZhCN['upload.image.tokenFailed']).toBe('获取上传 token 失败');
    expect(screensZhCN['upload.image.failed']).toBe('上传失败：');
    expect(screensEnUS['upload.image.tooLarge']).toBe('An image cannot exceed {{mb}} MB');
  });
});
