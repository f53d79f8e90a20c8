import type { UploadPurpose } from '@clearplay/contract';
import { uploadEndpoints } from '@clearplay/contract/constants';
import type { GetUploadToken } from '../../../components/ImageUploader/index.ts';
import { api } from '../../../lib/api-client.ts';

/**
 * The image uploader's `getToken` for one kind of evidence (GET /admin/upload/token). Quiet:
 * when the call fails, the widget's own "获取上传 token 失败" is the only message. Passing a
 * key the server issued before gets a fresh token for it, so an interrupted upload resumes.
 */
export const uploadTokenGetter =
  (purpose: UploadPurpose): GetUploadToken =>
  ({ key }) =>
    api.call(uploadEndpoints.token, { query: { purpose, key }, quiet: true });
