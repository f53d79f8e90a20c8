export { ImageUploader, type ImageUploaderProps, type UploadState } from './ImageUploader.tsx';
export { uploaderMessages, uploaderText, type UploaderMessageKey } from './messages.ts';
export { sdkConfigFor, SPEC_UPLOAD_CONFIG, type Config as UploadSdkConfig } from './sdk-config.ts';
export { describeUploadError, looksLikeImage, type GetUploadToken, type UploadTicket } from './upload-image.ts';
export { formatImageList, parseImageList } from './value.ts';
