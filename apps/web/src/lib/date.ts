import dayjs from './dayjs.ts';
import { currentLocale } from './i18n.ts';

/**
 * THE date format of the screens, per language (decision 0067): local time, 24-hour clock,
 * zh-CN `2026-11-25 10:30:00`, en-US `Nov 25, 2026 10:30:00` (or to the minute where a
 * column is narrow), '-' when there is no date. Screens call this instead of formatting dayjs
 * inline, so every table, drawer and form writes dates alike, and a component re-rendered by a
 * language switch writes the new language's form.
 */
const PATTERN = { second: 'YYYY-MM-DD HH:mm:ss', minute: 'YYYY-MM-DD HH:mm', day: 'YYYY-MM-DD' } as const;
const PATTERN_EN = { second: 'MMM D, YYYY HH:mm:ss', minute: 'MMM D, YYYY HH:mm', day: 'MMM D, YYYY' } as const;
export type DatePrecision = keyof typeof PATTERN;

export function formatDate(
  value: string | number | Date | dayjs.Dayjs | null | undefined,
  precision: DatePrecision = 'second',
  locale: string = currentLocale(),
): string {
  if (value === null || value === undefined || value === '') return '-';
  const date = dayjs(value);
  if (!date.isValid()) return '-';
  return locale.startsWith('en') ? date.locale('en').format(PATTERN_EN[precision]) : date.format(PATTERN[precision]);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A count or figure in the reader's language (grouped digits): `12,345`. '-' when there is none. */
export function formatNumber(value: number | null | undefined, locale: string = currentLocale(), digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  const key = `${locale}|${digits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/** A ratio as a percentage in the reader's language: 0.125 → `12.5%`. */
export const formatPercent = (ratio: number, locale: string = currentLocale(), digits = 1): string =>
  `${formatNumber(ratio * 100, locale, digits)}%`;

/** The date-picker format for the same precision (search forms, order form): the numeric form in every language, so dates can be typed. */
export const datePickerFormat = (precision: DatePrecision): string => PATTERN[precision];

/** A timestamp for a file name the browser saves: `20261125-103000`. */
export const fileStamp = (): string => dayjs().format('YYYYMMDD-HHmmss');
