import { describe, expect, it } from 'vitest';
import { detectImageType, mimeAllowed } from './image-type.ts';
import { isIssuedKey, isSafeKey, newUploadKey, pathForKey } from './keys.ts';

const SECRET = 'upload-secret-for-tests';

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('image type from magic bytes', () => {
  it.each([
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF')],
    ['image/png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR')],
    ['image/gif', bytes('GIF89a', [1, 0, 1, 0])],
    ['image/webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ')],
    ['image/bmp', bytes('BM', [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0])],
    ['image/tiff', bytes([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0])],
    ['image/avif', bytes([0, 0, 0, 0x1c], 'ftypavif', [0, 0, 0, 0], 'avifmif1')],
    ['image/heic', bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1heic')],
    ['image/avif', bytes([0, 0, 0, 0x1c], 'ftypmif1', [0, 0, 0, 0], 'mif1avif')],
  ])('recognises %s', (type, head) => {
    expect(detectImageType(head)).toBe(type);
  });

  it.each([
    ['text', bytes('hello world, this is not an image')],
    ['svg', bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['html', bytes('<!DOCTYPE html><html>')],
    ['pdf', bytes('%PDF-1.7\n')],
    ['zip', bytes([0x50, 0x4b, 0x03, 0x04])],
    ['mp4', bytes([0, 0, 0, 0x18], 'ftypisom')],
    ['truncated png', bytes([0x89, 0x50, 0x4e])],
    ['empty', bytes()],
  ])('refuses %s', (_name, head) => {
    expect(detectImageType(head)).toBeNull();
  });

  it('applies a mimeLimit list, wildcards and negation', () => {
    expect(mimeAllowed('image/png', undefined)).toBe(true);
    expect(mimeAllowed('image/png', 'image/*')).toBe(true);
    expect(mimeAllowed('image/png', 'image/jpeg;image/png')).toBe(true);
    expect(mimeAllowed('image/gif', 'image/jpeg;image/png')).toBe(false);
    expect(mimeAllowed('image/gif', '!image/gif')).toBe(false);
    expect(mimeAllowed('image/png', '!image/gif')).toBe(true);
  });
});

describe('keys', () => {
  it('an avatar key names its owner, and only its owner may use it', () => {
    const key = newUploadKey('avatar', new Date('2026-03-05T00:00:00Z'), 42, SECRET);
    expect(key).toMatch(/^avatar\/42\/[0-9a-f]{32}$/);
    expect(isSafeKey(key)).toBe(true);
    expect(isIssuedKey(key, 'avatar', 42, SECRET)).toBe(true);
    expect(isIssuedKey(key, 'avatar', 4, SECRET)).toBe(false);
    expect(isIssuedKey(key, 'cert', 42, SECRET)).toBe(false);
    expect(isIssuedKey('avatar/42/../../x', 'avatar', 42, SECRET)).toBe(false);
    expect(isIssuedKey(`avatar/0/${'a'.repeat(32)}`, 'avatar', 0, SECRET)).toBe(false);
  });

  it('accepts the keys the server issues and refuses anything that could leave the folder', () => {
    const key = newUploadKey('proof', new Date('2026-03-05T00:00:00Z'), 3, SECRET);
    expect(key).toMatch(/^evidence\/proof\/202603\/[0-9a-f]{32}$/);
    expect(isSafeKey(key)).toBe(true);
    expect(isIssuedKey(key, 'proof', 3, SECRET)).toBe(true);
    expect(isIssuedKey(key, 'cert', 3, SECRET)).toBe(false);
    expect(isIssuedKey(key, 'avatar', 3, SECRET)).toBe(false);
    for (const bad of [
      '',
      '..',
      '../a',
      'a/..',
      'a/../b',
      '/abs',
      'a//b',
      'a\\b',
      'a/',
      '.x',
      'a/.b',
      'a b',
      'a%2e',
      'a\u0000b',
      'x'.repeat(201),
    ]) {
      expect(isSafeKey(bad), JSON.stringify(bad)).toBe(false);
      expect(pathForKey('/data/uploads/files', bad)).toBeNull();
    }
    expect(pathForKey('/data/uploads/files', 'a/b.png')).toBe('/data/uploads/files/a/b.png');
  });

  it('an evidence key is sealed to the user it was issued to: another user, another secret or a made-up key is refused', () => {
    const key = newUploadKey('cert', new Date('2026-03-05T00:00:00Z'), 3, SECRET);
    expect(isIssuedKey(key, 'cert', 3, SECRET)).toBe(true);
    expect(isIssuedKey(key, 'cert', 4, SECRET)).toBe(false);
    expect(isIssuedKey(key, 'cert', 3, 'another-secret')).toBe(false);
    expect(isIssuedKey(`evidence/cert/202603/${'0'.repeat(32)}`, 'cert', 3, SECRET)).toBe(false);
    // The month is sealed too: the same random part under another month is not the same key.
    expect(isIssuedKey(key.replace('/202603/', '/202604/'), 'cert', 3, SECRET)).toBe(false);
    expect(isIssuedKey(key.toUpperCase(), 'cert', 3, SECRET)).toBe(false);
    // 32 hex digits as before: 16 random, 16 of seal, so two keys of one user differ.
    expect(newUploadKey('cert', new Date(), 3, SECRET)).not.toBe(newUploadKey('cert', new Date(), 3, SECRET));
  });
});
