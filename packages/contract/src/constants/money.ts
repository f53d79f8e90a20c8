/**
 * Money is integer fen on the wire and in the database (1 CNY = 100 fen). THE money format,
 * for screens and server-made files alike: CNY with two decimals and grouped thousands,
 * `¥1,234.50` (`-¥12.50` when negative), the same in zh-CN and en-US — what
 * `Intl.NumberFormat(locale, { style: 'currency', currency: 'CNY', currencyDisplay: 'narrowSymbol' })`
 * writes in both (a test compares them). Written by hand: a page's first `Intl` call loads the
 * browser's locale data, a long task on a phone (about 100 ms at Lighthouse's 4× CPU slowdown),
 * which the public landing page would pay just to show its prices (decision 0068).
 */

/** 1234567 → `1,234,567`: digits grouped by three with commas, as zh-CN and en-US both write them. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return '';
  const digits = String(Math.round(Math.abs(value)));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value < 0 && grouped !== '0' ? `-${grouped}` : grouped;
}

/**
 * `¥1,234.50` for 123450 fen; '' for no amount. `locale`: the reader's language (zh-CN by
 * default); both languages write money the same way.
 */
export function formatMoney(fen: number | null | undefined, locale = 'zh-CN'): string {
  void locale;
  if (fen === null || fen === undefined || !Number.isFinite(fen)) return '';
  const cents = Math.round(Math.abs(fen));
  const sign = fen < 0 && cents > 0 ? '-' : '';
  return `${sign}¥${formatCount(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, '0')}`;
}

/** For a form field or a spreadsheet's number cell: 1250 fen → 12.5 (yuan). */
export const fenToYuan = (fen: number | null | undefined): number | null => (fen === null || fen === undefined ? null : fen / 100);

/** From a form field: 12.5 → 1250 (rounded to whole fen: 0.1 + 0.2 yuan is 30 fen). */
export const yuanToFen = (yuan: number | string | null | undefined): number => {
  const value = typeof yuan === 'string' ? Number(yuan) : (yuan ?? 0);
  return Math.round(value * 100);
};
