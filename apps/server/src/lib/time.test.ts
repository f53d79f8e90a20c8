import { describe, expect, it } from 'vitest';
import { toIso, toIsoOrNull } from './time.ts';

describe('toIso', () => {
  it('answers each instant its own text, the same instant asked again or in turn with others', () => {
    const a = Date.UTC(2026, 10, 25, 16, 30, 0, 123);
    const b = a + 1;
    expect(toIso(a)).toBe('2026-11-25T16:30:00.123Z');
    expect(toIso(a)).toBe('2026-11-25T16:30:00.123Z');
    expect(toIso(b)).toBe('2026-11-25T16:30:00.124Z');
    expect(toIso(a)).toBe('2026-11-25T16:30:00.123Z');
    expect(toIso(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(toIsoOrNull(null)).toBeNull();
  });

  it('throws for a time that is no instant, also right after a valid one', () => {
    expect(toIso(1)).toBe('1970-01-01T00:00:00.001Z');
    expect(() => toIso(Number.NaN)).toThrow(RangeError);
    expect(() => toIso(Number.NaN)).toThrow(RangeError);
    expect(() => toIso(9e15)).toThrow(RangeError);
    expect(toIso(1)).toBe('1970-01-01T00:00:00.001Z');
  });
});
