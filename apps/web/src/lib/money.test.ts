import { describe, expect, it } from 'vitest';
import { fenToYuan, formatFen, yuanToFen } from './money.ts';

describe('money', () => {
  it('shows fen as CNY with two decimals', () => {
    expect(formatFen(1250)).toBe('¥12.50');
    expect(formatFen(0)).toBe('¥0.00');
    expect(formatFen(123456789)).toBe('¥1,234,567.89');
    expect(formatFen(-5)).toBe('-¥0.05');
    expect(formatFen(null)).toBe('');
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
