import { describe, expect, it } from 'vitest';
import { fenToYuan, formatCount, formatMoney, yuanToFen } from '@clearplay/contract/constants';

// The contract's one money format (packages/contract/src/constants/money.ts), which screens,
// the order export and the evidence ZIP's summary share. The contract has no test runner of
// its own; the web's runs this.
describe('money', () => {
  it('shows fen as CNY with two decimals and grouped thousands, in both languages', () => {
    for (const locale of ['zh-CN', 'en-US']) {
      expect(formatMoney(1250, locale)).toBe('¥12.50');
      expect(formatMoney(0, locale)).toBe('¥0.00');
      expect(formatMoney(123456789, locale)).toBe('¥1,234,567.89');
      expect(formatMoney(-5, locale)).toBe('-¥0.05');
      expect(formatMoney(null, locale)).toBe('');
    }
    expect(formatMoney(123450)).toBe('¥1,234.50');
    // An unknown language falls back to the default one instead of throwing.
    expect(formatMoney(123450, 'cimode')).toBe('¥1,234.50');
  });

  it('writes what Intl writes for CNY in both languages, without calling Intl (decision 0068)', () => {
    const amounts = [0, 1, 5, 99, 100, 1250, 99999, 100000, 123456789, 100000000, 987654321012, -1, -5, -100, -123456, 12.5, -12.5, 0.4];
    for (const locale of ['zh-CN', 'en-US']) {
      const intl = new Intl.NumberFormat(locale, { style: 'currency', currency: 'CNY', currencyDisplay: 'narrowSymbol' });
      for (const fen of amounts) expect(formatMoney(fen, locale), `${fen} ${locale}`).toBe(intl.format(fen / 100));
      const plain = new Intl.NumberFormat(locale);
      for (const n of [0, 7, 999, 1000, 12345, 1234567, 98765432109, -1234]) expect(formatCount(n)).toBe(plain.format(n));
    }
  });

  it('converts between yuan and whole fen', () => {
    expect(yuanToFen(12.5)).toBe(1250);
    expect(yuanToFen(0.1 + 0.2)).toBe(30);
    expect(yuanToFen(19.99)).toBe(1999);
    expect(yuanToFen('3.3')).toBe(330);
    expect(yuanToFen(null)).toBe(0);
    expect(fenToYuan(1999)).toBe(19.99);
    expect(fenToYuan(null)).toBeNull();
  });
});
