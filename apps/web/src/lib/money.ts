/**
 * Money is integer fen on the wire (1 CNY = 100 fen). It is shown as CNY with two decimals
 * ('¥12.50') and edited in yuan (InputNumber, precision 2).
 */

/** '¥1,234.50'; negative amounts '-¥12.50'. */
export function formatFen(fen: number | null | undefined): string {
  if (fen === null || fen === undefined || !Number.isFinite(fen)) return '';
  const yuan = Math.abs(fen) / 100;
  const text = yuan.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${fen < 0 ? '-' : ''}¥${text}`;
}

/** For a form field: 1250 → 12.5. */
export const fenToYuan = (fen: number | null | undefined): number | null =>
  fen === null || fen === undefined ? null : fen / 100;

/** From a form field: 12.5 → 1250 (rounded to whole fen: 0.1 + 0.2 yuan is 30 fen). */
export const yuanToFen = (yuan: number | string | null | undefined): number => {
  const value = typeof yuan === 'string' ? Number(yuan) : (yuan ?? 0);
  return Math.round(value * 100);
};
