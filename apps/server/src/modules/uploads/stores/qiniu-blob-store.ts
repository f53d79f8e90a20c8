/**
 * The cloud provider's bucket (Qiniu Kodo) as a BlobStore, through its official Node SDK
 * (loaded only when the provider is configured): uploads with a token we sign (insert-only,
 * form upload up to 4 MB, resumable v2 above), stat, delete and list through its management
 * API (BucketManager), and bytes read from the bucket's domain through a private download URL
 * the SDK signs (the bucket is private, decision 0082), without following redirects (an image
 * list is no licence to fetch arbitrary addresses).
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type qiniuModule from 'qiniu';
import { BlobExistsError, BlobReadError, type BlobInfo, type BlobStore } from './blob-store.ts';
import { signUploadToken } from '../upload-token.ts';

type Qiniu = typeof qiniuModule;

export interface QiniuBlobStoreOptions {
  accessKey: string;
  secretKey: string;
  bucket: string;
  /** The bucket's public base URL, no trailing slash. */
  publicBaseUrl: string;
  /** The SDK's hosts; by default it asks the provider which ones serve the bucket. */
  zone?: qiniuModule.conf.Zone;
  /** Default true; false for a host on plain HTTP. */
  useHttps?: boolean;
}

const FORM_UPLOAD_MAX = 4 * 1024 * 1024;
const PART_SIZE = 4 * 1024 * 1024;
/** The provider's "no such file" status. */
const NO_SUCH_FILE = 612;

/** `putTime` is in units of 100 ns. */
const dateOfPutTime = (putTime: number) => new Date(Math.floor(putTime / 10_000));

export class QiniuBlobStore implements BlobStore {
  private readonly config: qiniuModule.conf.Config;
  private readonly bucketManager: qiniuModule.rs.BucketManager;

  private constructor(
    private readonly qiniu: Qiniu,
    private readonly options: QiniuBlobStoreOptions,
  ) {
    this.config = new qiniu.conf.Config({ useHttpsDomain: options.useHttps ?? true, ...(options.zone ? { zone: options.zone } : {}) });
    this.bucketManager = new qiniu.rs.BucketManager(new qiniu.auth.digest.Mac(options.accessKey, options.secretKey), this.config);
  }

  static async create(options: QiniuBlobStoreOptions): Promise<QiniuBlobStore> {
    const { default: qiniu } = await import('qiniu');
    return new QiniuBlobStore(qiniu, options);
  }

  private fail(status: number | undefined, data: unknown): never {
    const message = typeof data === 'object' && data !== null && 'error' in data ? String((data as { error: unknown }).error) : '';
    throw new BlobReadError('http', status, { cause: new Error(`the storage provider answered ${status} ${message}`) });
  }

  async put(key: string, body: Buffer): Promise<BlobInfo> {
    const token = signUploadToken(
      { scope: `${this.options.bucket}:${key}`, insertOnly: 1, deadline: Math.floor(Date.now() / 1000) + 3600 },
      { accessKey: this.options.accessKey, secretKey: this.options.secretKey },
    );
    const { qiniu } = this;
    const { data, resp } =
      body.length <= FORM_UPLOAD_MAX
        ? await new qiniu.form_up.FormUploader(this.config).put(token, key, body, new qiniu.form_up.PutExtra())
        : await new qiniu.resume_up.ResumeUploader(this.config).putStream(
            token,
            key,
            Readable.from([body]),
            body.length,
            new qiniu.resume_up.PutExtra(undefined, undefined, undefined, undefined, undefined, PART_SIZE, 'v2'),
          );
    if (resp.statusCode === 614) throw new BlobExistsError(key);
    if (resp.statusCode !== 200) this.fail(resp.statusCode, data);
    return { key, size: body.length, storedAt: new Date() };
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const { data, resp } = await this.bucketManager.stat(this.options.bucket, key);
    if (resp.statusCode === NO_SUCH_FILE) return null;
    if (resp.statusCode !== 200) this.fail(resp.statusCode, data);
    return { key, size: data.fsize ?? 0, storedAt: dateOfPutTime(data.putTime ?? 0) };
  }

  async delete(key: string): Promise<boolean> {
    const { data, resp } = await this.bucketManager.delete(this.options.bucket, key);
    if (resp.statusCode === NO_SUCH_FILE) return false;
    if (resp.statusCode !== 200) this.fail(resp.statusCode, data);
    return true;
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    let marker = '';
    do {
      const { data, resp } = await this.bucketManager.listPrefix(this.options.bucket, { prefix, marker, limit: 1000 });
      if (resp.statusCode !== 200) this.fail(resp.statusCode, data);
      for (const item of data.items ?? []) yield { key: item.key, size: item.fsize ?? 0, storedAt: dateOfPutTime(item.putTime ?? 0) };
      marker = data.marker ?? '';
    } while (marker !== '');
  }

  /** The object's private download URL, valid for a minute (enough to start reading it). */
  downloadUrl(key: string, now: number = Date.now()): string {
    return this.bucketManager.privateDownloadUrl(this.options.publicBaseUrl, key, Math.floor(now / 1000) + 60);
  }

  async get(key: string, options: { signal?: AbortSignal } = {}): Promise<{ info: null; stream: Readable }> {
    let res: Response;
    try {
      res = await fetch(this.downloadUrl(key), { signal: options.signal, redirect: 'error' });
    } catch (error) {
      const name = (error as { name?: unknown }).name;
      throw new BlobReadError(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'failed', undefined, { cause: error });
    }
    if (!res.ok || res.body === null) {
      await res.body?.cancel().catch(() => undefined);
      throw new BlobReadError('http', res.status);
    }
    return { info: null, stream: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>) };
  }

  /** `<public base URL>/<key>`; a query string (image processing, cache busting) is not part of the key. */
  keyOfUrl(raw: string): string | null {
    const base = `${this.options.publicBaseUrl}/`;
    if (!raw.startsWith(base)) return null;
    const path = raw.slice(base.length).split(/[?#]/)[0] ?? '';
    try {
      const key = decodeURIComponent(path);
      return key === '' ? null : key;
    } catch {
      return null;
    }
  }
}
