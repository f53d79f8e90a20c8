import { describe, expect, it } from 'vitest';
import { fenToYuan, formatMoney, yuanToFen } from '@clearplay/contract/constants';

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
