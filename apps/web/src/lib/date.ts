import dayjs from './dayjs.ts';

/**
 * THE date format of the screens: local time, `2026-11-25 10:30:00` (or to the minute where
 * a column is narrow), '-' when there is no date. Screens call this instead of formatting
 * dayjs inline, so every table, drawer and form writes dates alike.
 */
const PATTERN = { second: 'YYYY-MM-DD HH:mm:ss', minute: 'YYYY-MM-DD HH:mm', day: 'YYYY-MM-DD' } as const;
export type DatePrecision = keyof typeof PATTERN;

export function formatDate(value: string | number | Date | dayjs.Dayjs | null | undefined, precision: DatePrecision = 'second'): string {
  if (value === null || value === undefined || value === '') return '-';
  const date = dayjs(value);
  return date.isValid() ? date.format(PATTERN[precision]) : '-';
}

/** The date-picker display format for the same precision (search forms, order form). */
export const datePickerFormat = (precision: DatePrecision): string => PATTERN[precision];

/** A timestamp for a file name the browser saves: `20261125-103000`. */
export const fileStamp = (): string => dayjs().format('YYYYMMDD-HHmmss');
