import relativeTime from 'dayjs/plugin/relativeTime';
import dayjs from '../../../lib/dayjs.ts';

dayjs.extend(relativeTime);

/** "3 minutes ago" / "3 分钟前", in the app's language (dayjs follows it). */
export const fromNow = (instant: string, now = Date.now()): string => dayjs(instant).from(dayjs(now));
