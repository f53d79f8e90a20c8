import qiniu from 'qiniu';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { qetagOf } from './hashing/digest-stream.ts';
import {
  parseScope,
  readPutPolicy,
  signUploadToken,
  urlSafeBase64Decode,
  urlSafeBase64Encode,
  UploadTokenError,
  verifyUploadToken,
} from './upload-token.ts';
import { createUploadSigner, imagePutPolicy } from './uploads.service.ts';

const keys = { accessKey: 'AK_example_0123', secretKey: 'SK_example_abcdefghijklmnop' };

afterEach(() => {
  vi.useRealTimers();
});

describe('upload token', () => {
  it('equals the provider Node SDK token for the same put policy', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T08:00:00Z'));
    const signer = createUploadSigner(
      {
        provider: 'qiniu',
        accessKey: keys.accessKey,
        secretKey: keys.secretKey,
        bucket: 'evidence-bucket',
        publicBaseUrl: 'https://img.example.com',
        region: 'z2',
        maxImageBytes: 20 * 1024 * 1024,
        tokenTtlSeconds: 900,
        evidenceUrlTtlSeconds: 900,
        evidenceExportUrlTtlSeconds: 86_400,
        evidenceUrlSecret: null,
      },
      '/nonexistent',
    );
    const key = 'evidence/proof/202603/0123456789abcdef0123456789abcdef';
    const deadline = Math.floor(Date.now() / 1000) + 900;
    const ours = signUploadToken(imagePutPolicy(signer, key, deadline), keys);

    const { deadline: _deadline, ...options } = imagePutPolicy(signer, key, deadline);
    const mac = new qiniu.auth.digest.Mac(keys.accessKey, keys.secretKey);
    const theirs = new qiniu.rs.PutPolicy({ ...options, expires: 900 } as qiniu.rs.PutPolicyOptions).uploadToken(mac);

    expect(ours).toBe(theirs);
    expect(ours.split(':')).toHaveLength(3);
  });

  it('equals the SDK token for a bare bucket scope too', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T08:00:00Z'));
    const mac = new qiniu.auth.digest.Mac(keys.accessKey, keys.secretKey);
    const theirs = new qiniu.rs.PutPolicy({ scope: 'b', expires: 60 }).uploadToken(mac);
    expect(signUploadToken({ scope: 'b', deadline: Math.floor(Date.now() / 1000) + 60 }, keys)).toBe(theirs);
  });

  it('verifies its own tokens and returns the policy', () => {
    const t = signUploadToken({ scope: 'b:k', deadline: 2_000, fsizeLimit: 10 }, keys);
    expect(verifyUploadToken(t, keys, 1_999)).toEqual({ scope: 'b:k', deadline: 2_000, fsizeLimit: 10 });
    expect(readPutPolicy(t)).toEqual({ scope: 'b:k', fsizeLimit: 10, deadline: 2_000 });
  });

  it('refuses a missing, malformed, foreign, tampered or expired token', () => {
    const good = signUploadToken({ scope: 'b:k', deadline: 2_000 }, keys);
    const [ak, sig, policy] = good.split(':') as [string, string, string];
    const refuse = (token: string | undefined, now = 1_000) => {
      try {
        verifyUploadToken(token, keys, now);
      } catch (error) {
        expect(error).toBeInstanceOf(UploadTokenError);
        return `${(error as UploadTokenError).status} ${(error as Error).message}`;
      }
      return 'accepted';
    };
    expect(refuse(good)).toBe('accepted');
    expect(refuse(undefined)).toBe('401 token not specified');
    expect(refuse('garbage')).toBe('401 bad token');
    expect(refuse(`other:${sig}:${policy}`)).toBe('401 bad token');
    const flipped = sig.slice(0, 5) + (sig[5] === 'A' ? 'B' : 'A') + sig.slice(6);
    expect(refuse(`${ak}:${flipped}:${policy}`)).toBe('401 bad token');
    // The policy changed (another key), the signature kept: refused.
    const forged = urlSafeBase64Encode(JSON.stringify({ scope: 'b:other', deadline: 2_000 }));
    expect(refuse(`${ak}:${sig}:${forged}`)).toBe('401 bad token');
    // Signed with another secret key.
    expect(refuse(signUploadToken({ scope: 'b:k', deadline: 2_000 }, { ...keys, secretKey: 'x' }))).toBe('401 bad token');
    expect(refuse(good, 2_001)).toBe('401 token out of date');
    // Signed, but not a policy.
    expect(refuse(signUploadToken({ deadline: 2_000 } as never, keys))).toBe('401 bad token');
  });

  it('encodes urlsafe base64 with padding, as the provider does, and decodes either form', () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xfe, 0x01]);
    expect(urlSafeBase64Encode(bytes)).toBe('-__-AQ==');
    expect(urlSafeBase64Decode('-__-AQ==')).toEqual(bytes);
    expect(urlSafeBase64Decode('-__-AQ')).toEqual(bytes);
    expect(urlSafeBase64Decode('a.b')).toBeNull();
    expect(urlSafeBase64Decode('abcde')).toBeNull();
  });

  it('splits a scope into bucket and key', () => {
    expect(parseScope('b')).toEqual({ bucket: 'b', key: undefined });
    expect(parseScope('b:a:b/c')).toEqual({ bucket: 'b', key: 'a:b/c' });
  });
});

describe('qetag', () => {
  it('matches the provider hash of an empty file and follows the 4 MB block rule', async () => {
    const { createHash } = await import('node:crypto');
    expect(qetagOf(Buffer.alloc(0))).toBe('Fto5o-5ea0sNMlW_75VgGJCv2AcJ');
    const small = Buffer.from('hello');
    const sha1 = (b: Buffer) => createHash('sha1').update(b).digest();
    expect(qetagOf(small)).toBe(urlSafeBase64Encode(Buffer.concat([Buffer.from([0x16]), sha1(small)])));
    const big = Buffer.alloc(4 * 1024 * 1024 + 10, 7);
    const blocks = Buffer.concat([sha1(big.subarray(0, 4 * 1024 * 1024)), sha1(big.subarray(4 * 1024 * 1024))]);
    expect(qetagOf(big)).toBe(urlSafeBase64Encode(Buffer.concat([Buffer.from([0x96]), sha1(blocks)])));
  });
});
