export const LIST_CLASSES = ['default', 'primary', 'success', 'info', 'warning', 'danger'] as const;

/**
 * THE label of a dictionary entry (or name of a type) in a reader's language (decision 0066):
 * English readers get the English text, falling back to the Chinese one when it is empty;
 * every other language gets the Chinese text. Web and server both call this.
 */
export function localizedLabel(label: string, labelEn: string | null | undefined, locale: string | null | undefined): string {
  const english = (labelEn ?? '').trim();
  return locale !== null && locale !== undefined && locale.toLowerCase().startsWith('en') && english !== '' ? english : label;
}
