import { describe, expect, it } from 'vitest';
import { localizedLabel } from '@clearplay/contract/constants';
import { formatDate, formatNumber, formatPercent } from './date.ts';
import { dictLabel } from './dicts.ts';

// Decisions 0066 and 0067: the one dictionary label resolver and the per-language formats.
describe('dictionary labels in the reader’s language', () => {
  it('gives English readers the English label, falling back to the Chinese one when it is empty', () => {
    const cheating = { label: '作弊', labelEn: 'Cheating' };
    expect(dictLabel(cheating, 'en-US')).toBe('Cheating');
    expect(dictLabel(cheating, 'zh-CN')).toBe('作弊');
    expect(dictLabel({ label: '待定', labelEn: '' }, 'en-US')).toBe('待定');
    expect(dictLabel({ label: '待定', labelEn: '   ' }, 'en-US')).toBe('待定');
    expect(localizedLabel('是', null, 'en')).toBe('是');
    expect(localizedLabel('是', 'Yes', undefined)).toBe('是');
  });
});

describe('formats per language', () => {
  // 2026-11-25 10:30:05 local time, whatever the machine's zone.
  const instant = new Date(2026, 10, 25, 10, 30, 5);

  it('writes dates numerically in Chinese and with the month’s name in English', () => {
    expect(formatDate(instant, 'second', 'zh-CN')).toBe('2026-11-25 10:30:05');
    expect(formatDate(instant, 'minute', 'zh-CN')).toBe('2026-11-25 10:30');
    expect(formatDate(instant, 'second', 'en-US')).toBe('Nov 25, 2026 10:30:05');
    expect(formatDate(instant, 'day', 'en-US')).toBe('Nov 25, 2026');
    expect(formatDate(null, 'second', 'en-US')).toBe('-');
    expect(formatDate('not a date', 'second', 'zh-CN')).toBe('-');
  });

  it('groups numbers and writes percentages in the reader’s language', () => {
    expect(formatNumber(1234567, 'en-US')).toBe('1,234,567');
    expect(formatNumber(1234567, 'zh-CN')).toBe('1,234,567');
    expect(formatNumber(undefined, 'en-US')).toBe('-');
    expect(formatPercent(0.1254, 'en-US')).toBe('12.5%');
    expect(formatPercent(1, 'zh-CN')).toBe('100.0%');
  });
});
