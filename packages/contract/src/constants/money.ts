/**
 * Money is integer fen on the wire and in the database (1 CNY = 100 fen). THE money format,
 * for screens and server-made files alike: CNY with two decimals and grouped thousands,
 * `¥1,234.50` (`-¥12.50` when negative), in the reader's language (zh-CN and en-US both
 * write it so; en-US would otherwise say `CN¥`).
 */
const MONEY_LOCALES = ['zh-CN', 'en-US'] as const;
const formats = new Map<string, Intl.NumberFormat>();

function moneyFormat(locale: string): Intl.NumberFormat {
  const known = (MONEY_LOCALES as readonly string[]).includes(locale) ? locale : MONEY_LOCALES[0];
  let format = formats.get(known);
  if (!format) {
    format = new Intl.NumberFormat(known, { style: 'currency', currency: 'CNY', currencyDisplay: 'narrowSymbol' });
    formats.set(known, format);
  }
  return format;
}

/** `¥1,234.50` for 123450 fen; '' for no amount. `locale`: the reader's language (zh-CN by default). */
export function formatMoney(fen: number | null | undefined, locale = 'zh-CN'): string {
  if (fen === null || fen === undefined || !Number.isFinite(fen)) return '';
  return moneyFormat(locale).format(fen / 100);
}

/** For a form field or a spreadsheet's number cell: 1250 fen → 12.5 (yuan). */
export const fenToYuan = (fen: number | null | undefined): number | null => (fen === null || fen === undefined ? null : fen / 100);

/** From a form field: 12.5 → 1250 (rounded to whole fen: 0.1 + 0.2 yuan is 30 fen). */
export const yuanToFen = (yuan: number | string | null | undefined): number => {
  const value = typeof yuan === 'string' ? Number(yuan) : (yuan ?? 0);
  return Math.round(value * 100);
};
