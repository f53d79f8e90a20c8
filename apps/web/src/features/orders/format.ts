import { formatDate } from '../../lib/date.ts';

/** An instant of an order as the screen shows it: local date and time to the minute. */
export const formatOrderTime = (value: string | null | undefined): string => formatDate(value, 'minute');
