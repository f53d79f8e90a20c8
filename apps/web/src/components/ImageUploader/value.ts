/** The form value: a comma-separated list of URLs. */
export function parseImageList(value: string | null | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}

export function formatImageList(urls: readonly string[]): string {
  return urls.filter((url) => url.trim() !== '').join(',');
}
