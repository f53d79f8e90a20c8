/**
 * The widget's strings (spec §2, §4, §8). Move them into src/locales/{zh-CN,en-US}.ts
 * under the same keys and read them with `t()`; both locales have the same keys.
 */
export const uploaderMessages = {
  'zh-CN': {
    'upload.image.select': '选择图片上传',
    'upload.image.uploading': '上传中...',
    'upload.image.noFile': '请选择文件',
    'upload.image.tokenFailed': '获取上传 token 失败',
    'upload.image.failed': '上传失败：',
    'upload.image.notImage': '只能上传图片（JPEG、PNG、GIF、WebP、BMP、AVIF、HEIC、TIFF）',
    'upload.image.tooLarge': '图片不能超过 {{mb}} MB',
    'upload.image.retry': '重试',
    'upload.image.preview': '预览',
  },
  'en-US': {
    'upload.image.select': 'Select images to upload',
    'upload.image.uploading': 'Uploading...',
    'upload.image.noFile': 'Please select a file',
    'upload.image.tokenFailed': 'Failed to get the upload token',
    'upload.image.failed': 'Upload failed: ',
    'upload.image.notImage': 'Only images can be uploaded (JPEG, PNG, GIF, WebP, BMP, AVIF, HEIC, TIFF)',
    'upload.image.tooLarge': 'An image cannot exceed {{mb}} MB',
    'upload.image.retry': 'Retry',
    'upload.image.preview': 'Preview',
  },
} as const;

export type UploaderMessageKey = keyof (typeof uploaderMessages)['zh-CN'];
export type UploaderLocale = keyof typeof uploaderMessages;

/** The message in `locale` (zh-CN when the language is not one of ours), `{{name}}` filled in. */
export function uploaderText(locale: string, key: UploaderMessageKey, params: Record<string, string | number> = {}): string {
  const table: Record<UploaderMessageKey, string> = locale.startsWith('en') ? uploaderMessages['en-US'] : uploaderMessages['zh-CN'];
  return table[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
