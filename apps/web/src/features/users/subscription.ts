import type { SubscriptionState, SubscriptionType } from '@clearplay/contract';
import { SUBSCRIPTION_DAYS } from '@clearplay/contract/constants';
import dayjs, { type Dayjs } from 'dayjs';

/** Subscription lengths (docs/product.md "Money"): monthly 30 days, yearly 365, custom as entered. */
export function subscriptionDays(type: SubscriptionType, customDays: number | null | undefined): number | null {
  if (type === 'custom') return customDays && customDays > 0 ? Math.floor(customDays) : null;
  return SUBSCRIPTION_DAYS[type];
}

/**
 * What the server will set (docs/product.md "Money"): a renewal extends from the current end when it is
 * still in the future, otherwise the period starts now.
 */
export function resultingEnd(currentEnd: string | null | undefined, days: number, now: Dayjs = dayjs()): Dayjs {
  const end = currentEnd ? dayjs(currentEnd) : null;
  const from = end && end.isAfter(now) ? end : now;
  return from.add(days, 'day');
}

/** Tag colour per subscription state. */
export const SUBSCRIPTION_STATE_COLOR: Record<SubscriptionState, string> = {
  none: 'default',
  active: 'success',
  expiring: 'warning',
  expired: 'error',
};
