export { ImageUploader, type ImageUploaderProps, type UploaderMessageKey, type UploadState } from './ImageUploader.tsx';
export { sdkConfigFor, SPEC_UPLOAD_CONFIG, type Config as UploadSdkConfig } from './sdk-config.ts';
export { describeUploadError, looksLikeImage, type GetUploadToken, type UploadTicket } from './upload-image.ts';
export { formatImageList, parseImageList } from './value.ts';
