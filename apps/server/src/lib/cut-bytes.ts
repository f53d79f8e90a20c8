/** The operation log's stored payload limit, in UTF-8 bytes. */
export const PAYLOAD_MAX_BYTES = 4096;

/** UTF-8 safe cut to at most `max` bytes, marked with a trailing ellipsis when cut. */
export function cutBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  const marker = '…';
  const room = max - Buffer.byteLength(marker);
  return (
    bytes
      .subarray(0, room)
      .toString('utf8')
      .replace(/\uFFFD+$/, '') + marker
  );
}
