import { formatMoney } from '@clearplay/contract';
import { t, type Locale, type MessageKey, type MessageParams } from './messages.ts';

/**
 * Parameters of server-written text (messages, operation-log lines) as told to one reader
 * (decision 0097). Rows store codes and values, never words: the words are chosen when the row
 * is read, in the reader's language.
 *
 * - a key ending in `Fen` is money in fen, told as CNY in the reader's format (`amountFen` → `amount`);
 * - `result` is an order_result value, told by its dictionary label (the catalogue's word when
 *   the dictionary has no such entry); `game`, `status`, `changedMac` likewise (DICT_PARAMS), and
 *   the same names ending in From/To; a value the dictionary lacks is told as stored (which is
 *   how a message written with a Chinese label before decision 0097 is shown);
 * - `label` beside a non-empty `labelEn` (a dictionary entry named in a log line) is told by
 *   `labelEn` to an English reader;
 * - anything else (codes, names, counts, dates) is told as stored.
 */

/** A dictionary entry's label in a language; undefined when the dictionary has no such value. */
export type LabelOf = (typeCode: string, value: string, locale: Locale) => string | undefined;

export const noLabels: LabelOf = () => undefined;

/** Which parameter names hold a value of which dictionary. */
export const DICT_PARAMS: Readonly<Record<string, string>> = {
  result: 'order_result',
  game: 'game',
  status: 'common_status',
  changedMac: 'changed_mac',
};

/** The dictionary of a parameter: by its name, or its name without a From/To ending (`resultFrom`). */
const dictOf = (key: string): string | undefined => DICT_PARAMS[key] ?? DICT_PARAMS[key.replace(/(From|To)$/, '')];

export function tellParams(locale: Locale, params: MessageParams, labelOf: LabelOf = noLabels): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === 'label' && locale === 'en-US' && typeof params.labelEn === 'string' && params.labelEn.trim() !== '')
      out.label = params.labelEn;
    else if (key.endsWith('Fen')) out[key.slice(0, -3)] = formatMoney(Number(value), locale);
    else {
      const dict = dictOf(key);
      const label = dict === undefined ? undefined : labelOf(dict, String(value), locale);
      out[key] = label ?? (dict === DICT_PARAMS.result ? fallbackResult(locale, value) : value);
    }
  }
  return out;
}

const RESULT_WORDS = new Set(['0', '1', '2', '3']);
const fallbackResult = (locale: Locale, value: string | number): string | number =>
  RESULT_WORDS.has(String(value)) ? t(locale, `message.result.${String(value)}` as MessageKey) : value;

/** A catalogue text told with its parameters in the reader's language. */
export const tell = (locale: Locale, key: MessageKey, params: MessageParams, labelOf: LabelOf = noLabels): string =>
  t(locale, key, tellParams(locale, params, labelOf));

/** Parameters read back from their stored JSON (an object of strings and numbers; anything else is none). */
export function parseParams(text: string | null): Record<string, string | number> {
  if (text === null || text === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, string | number>) : {};
  } catch {
    return {};
  }
}
