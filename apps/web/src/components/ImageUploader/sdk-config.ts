import type { upload } from 'qiniu-js';
import type { UploadTarget } from '@clearplay/contract';
import { STORAGE_UPLOAD } from '@clearplay/contract/constants';

/** qiniu-js's upload settings (its `Config`, which the package does not export by name). */
export type Config = NonNullable<Parameters<typeof upload>[4]>;

/** Spec §9: over 4 MB chunked (the SDK's own rule), 4 MB chunks, 3 concurrent requests, 3 retries, https. */
export const SPEC_UPLOAD_CONFIG: Config = {
  chunkSize: STORAGE_UPLOAD.chunkSizeMb,
  concurrentRequestLimit: STORAGE_UPLOAD.concurrentRequests,
  retryCount: STORAGE_UPLOAD.retryCount,
  forceDirect: false,
  upprotocol: 'https',
};

/**
 * The SDK settings for where the server says the bytes go.
 * - `local`: this app's own origin + the embedded host's path, so the same browser code runs
 *   with and without the cloud; no statistics are posted to the provider's log endpoint
 *   (there is no provider, and the app may run offline).
 * - `qiniu`: the provider, with its region's upload hosts, or host discovery when no region.
 */
export function sdkConfigFor(target: UploadTarget | undefined, location: Pick<Location, 'host' | 'protocol'>): Config {
  if (target === undefined) return { ...SPEC_UPLOAD_CONFIG };
  if (target.provider === 'local') {
    return {
      ...SPEC_UPLOAD_CONFIG,
      uphost: `${location.host}${target.path}`,
      upprotocol: location.protocol === 'https:' ? 'https' : 'http',
      disableStatisticsReport: true,
    };
  }
  return {
    ...SPEC_UPLOAD_CONFIG,
    upprotocol: target.upprotocol,
    ...(target.region !== null ? { region: target.region as Config['region'] } : {}),
  };
}
