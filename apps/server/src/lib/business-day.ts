/**
 * The business's day (decision 0045): days and hours are counted in Asia/Shanghai, which has
 * kept UTC+8 without daylight saving since 1991, so a fixed offset is exact for every instant
 * the app stores.
 */
import { DAY_MS, HOUR_MS } from './time.ts';

export const BUSINESS_TIME_ZONE = 'Asia/Shanghai';
export const BUSINESS_OFFSET_MS = 8 * HOUR_MS;

/** Start (epoch ms) of the Shanghai day holding `ms`. */
export const businessDayStart = (ms: number): number => Math.floor((ms + BUSINESS_OFFSET_MS) / DAY_MS) * DAY_MS - BUSINESS_OFFSET_MS;

/** The Shanghai calendar date of a day start (or any instant), `YYYY-MM-DD`. */
export const businessDate = (ms: number): string => new Date(ms + BUSINESS_OFFSET_MS).toISOString().slice(0, 10);
