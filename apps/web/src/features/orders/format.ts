import dayjs from '../../lib/dayjs.ts';

/** An instant of an order as the screen shows it: local date and time to the minute. */
export const formatOrderTime = (value: string | null | undefined): string => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '—');
