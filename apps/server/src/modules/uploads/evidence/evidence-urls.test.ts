import { createHmac } from 'node:crypto';
import qiniu from 'qiniu';
import { describe, expect, it } from 'vitest';
import { checkLocalSignature, localEvidenceUrls, qiniuEvidenceUrls, signImageList, stripSignature } from './evidence-urls.ts';

/** Signing evidence links (decision 0082): which URLs are signed, and the shape each storage checks. */

const SECRET = 'unit-test-evidence-secret-0123456789';
const KEY = 'evidence/cert/202601/0123456789abcdef0123456789abcdef';
const DEADLINE = 1_800_000_000;

describe('embedded host links', () => {
  const urls = localEvidenceUrls(SECRET, 900, 86_400);

  it('signs an evidence path with an HMAC over the path and the deadline, and the host accepts it until then', () => {
    const signed = urls.sign(`/upload/files/${KEY}`, DEADLINE);
    const mac = createHmac('sha256', SECRET).update(`/upload/files/${KEY}?e=${DEADLINE}`).digest('base64url');
    expect(signed).toBe(`/upload/files/${KEY}?e=${DEADLINE}&token=${mac}`);
    const query = Object.fromEntries(new URL(signed, 'http://x').searchParams);
    expect(checkLocalSignature(SECRET, `/upload/files/${KEY}`, query, DEADLINE - 1)).toEqual({ ok: true, deadline: DEADLINE });
    expect(checkLocalSignature(SECRET, `/upload/files/${KEY}`, query, DEADLINE)).toEqual({ ok: false, reason: 'expired' });
    expect(checkLocalSignature(SECRET, `/upload/files/${KEY}x`, query, DEADLINE - 1)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkLocalSignature('another-secret', `/upload/files/${KEY}`, query, DEADLINE - 1)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkLocalSignature(SECRET, `/upload/files/${KEY}`, { e: String(DEADLINE + 1), token: query.token }, 0)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(checkLocalSignature(SECRET, `/upload/files/${KEY}`, {}, 0)).toEqual({ ok: false, reason: 'missing' });
  });

  it('signs an absolute URL on its own host, and leaves avatars, other hosts and other paths alone', () => {
    expect(urls.sign(`https://app.example/upload/files/${KEY}`, DEADLINE, 'app.example')).toMatch(
      new RegExp(`^https://app\\.example/upload/files/${KEY}\\?e=${DEADLINE}&token=`),
    );
    for (const url of [
      `https://elsewhere.example/upload/files/${KEY}`,
      '/upload/files/avatar/7/0123456789abcdef0123456789abcdef',
      '/upload/files/../etc/passwd',
      '//elsewhere.example/upload/files/x',
      'https://cdn.example.com/a.png',
    ]) {
      expect(urls.sign(url, DEADLINE, 'app.example')).toBe(url);
    }
  });

  it('signs a percent-encoded path as the host reads it (decoded), and refuses one that decodes to an unsafe key', () => {
    const signed = urls.sign(`/upload/files/${KEY.replaceAll('/', '%2F')}`, DEADLINE);
    expect(signed).toBe(urls.sign(`/upload/files/${KEY}`, DEADLINE));
    for (const url of ['/upload/files/evidence%2F..%2F..%2Fetc%2Fpasswd', '/upload/files/evidence/%E0%A4%A']) {
      expect(urls.sign(url, DEADLINE)).toBe(url);
    }
  });

  it('signs each URL of an image list, and a signed link comes back bare', () => {
    const list = `/upload/files/${KEY},https://cdn.example.com/a.png`;
    const signed = signImageList(urls, list, DEADLINE);
    expect(signed.split(',')).toHaveLength(2);
    expect(signed.split(',').map(stripSignature).join(',')).toBe(list);
    expect(signImageList(urls, '', DEADLINE)).toBe('');
  });
});

describe('provider links (the private bucket)', () => {
  const mac = new qiniu.auth.digest.Mac('cloud-ak', 'cloud-sk');
  const manager = new qiniu.rs.BucketManager(mac, new qiniu.conf.Config());
  const urls = qiniuEvidenceUrls(manager, 'https://img.example.com', 900, 86_400);

  it('hands out the SDK’s private download URL of the key: deadline and AK:HMAC-SHA1 of the URL', () => {
    const signed = urls.sign(`https://img.example.com/${KEY}`, DEADLINE);
    expect(signed).toBe(manager.privateDownloadUrl('https://img.example.com', KEY, DEADLINE));
    const [unsigned, token] = signed.split('&token=');
    expect(unsigned).toBe(`https://img.example.com/${KEY}?e=${DEADLINE}`);
    const sign = createHmac('sha1', 'cloud-sk').update(unsigned!).digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
    expect(token).toBe(`cloud-ak:${sign}`);
    expect(stripSignature(signed)).toBe(`https://img.example.com/${KEY}`);
  });

  it('leaves avatars and other hosts alone', () => {
    for (const url of ['https://img.example.com/avatar/7/0123456789abcdef0123456789abcdef', `https://elsewhere.example/${KEY}`]) {
      expect(urls.sign(url, DEADLINE)).toBe(url);
    }
  });
});
