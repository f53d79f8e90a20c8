import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { resultingEnd, subscriptionDays } from './subscription.ts';

describe('subscription arithmetic shown before confirming', () => {
  const now = dayjs('2026-05-10T08:00:00Z');

  it('monthly is 30 days, yearly 365, custom as entered', () => {
    expect(subscriptionDays('monthly', 99)).toBe(30);
    expect(subscriptionDays('yearly', undefined)).toBe(365);
    expect(subscriptionDays('custom', 45)).toBe(45);
    expect(subscriptionDays('custom', 0)).toBeNull();
    expect(subscriptionDays('custom', null)).toBeNull();
  });

  it('starts now without a subscription or after it ended, extends a running one from its end', () => {
    expect(resultingEnd(null, 30, now).toISOString()).toBe('2026-06-09T08:00:00.000Z');
    expect(resultingEnd('2026-05-01T00:00:00Z', 30, now).toISOString()).toBe('2026-06-09T08:00:00.000Z');
    expect(resultingEnd('2026-05-20T00:00:00Z', 30, now).toISOString()).toBe('2026-06-19T00:00:00.000Z');
  });
});
