/**
 * Where evidence images live, behind one interface: the embedded host's local disk
 * (LocalBlobStore) or the cloud provider's bucket (QiniuBlobStore). Downloads, ZIPs and the
 * retention sweep read, list and remove images through it and never learn which one it is.
 * Keys are the provider's object keys (`evidence/<purpose>/<yyyymm>/<32 hex>`).
 */
import type { Readable } from 'node:stream';

export interface BlobInfo {
  key: string;
  size: number;
  /** When the object was stored (its age decides retention). */
  storedAt: Date;
}

export interface BlobStore {
  /** Stores the bytes under `key`, never replacing an existing object (BlobExistsError). */
  put(key: string, body: Buffer): Promise<BlobInfo>;
  /**
   * The object's bytes as a stream, or null when the store says it does not exist. Throws
   * BlobReadError when it cannot tell (network, timeout, another answer of the provider).
   */
  get(key: string, options?: { signal?: AbortSignal }): Promise<{ info: BlobInfo | null; stream: Readable } | null>;
  /** Size and age, or null when there is no such object. */
  stat(key: string): Promise<BlobInfo | null>;
  /** Removes the object; false when there was none. */
  delete(key: string): Promise<boolean>;
  /** Every object whose key starts with `prefix`, in pages, with its size and age. */
  list(prefix: string): AsyncIterable<BlobInfo>;
  /** The key of an image URL this store handed out, or null when the URL is not one of its own. */
  keyOfUrl(url: string, ownHost: string | undefined): string | null;
}

export class BlobExistsError extends Error {
  constructor(readonly key: string) {
    super(`an object with the key ${key} exists`);
    this.name = 'BlobExistsError';
  }
}

export class BlobReadError extends Error {
  constructor(
    readonly reason: 'http' | 'timeout' | 'failed',
    /** The provider's HTTP status, when it answered one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(reason === 'http' ? `the storage answered HTTP ${status}` : `the object could not be read (${reason})`, options);
    this.name = 'BlobReadError';
  }
}
