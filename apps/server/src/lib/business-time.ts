/**
 * The business's calendar (decision 0041): days and months of the workplace and the data
 * analysis are counted in Asia/Shanghai, a fixed UTC+08:00 (no daylight saving since 1991).
 * Order counters are kept per UTC hour, which serves any whole-hour zone; the per-day
 * counters by game and by shop are keyed by the start of the business day.
 * Migration 0006 inlines the same offset (migrations import nothing of the app).
 */
import { DAY_MS, HOUR_MS } from './time.ts';

export const BUSINESS_TIME_ZONE = 'Asia/Shanghai';
export const BUSINESS_UTC_OFFSET_MS = 8 * HOUR_MS;

/** Start of the UTC hour holding `ms`. */
export const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;

/** The instant the business day holding `ms` starts (Shanghai midnight, as epoch ms). */
export const businessDayOf = (ms: number): number => Math.floor((ms + BUSINESS_UTC_OFFSET_MS) / DAY_MS) * DAY_MS - BUSINESS_UTC_OFFSET_MS;

/** The instant the business month holding `ms` starts, shifted by `add` months. */
export function businessMonthOf(ms: number, add = 0): number {
  const local = new Date(ms + BUSINESS_UTC_OFFSET_MS);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + add, 1) - BUSINESS_UTC_OFFSET_MS;
}

/** The instant the business week (Monday) holding `ms` starts. */
export function businessWeekOf(ms: number): number {
  const day = businessDayOf(ms);
  const weekday = new Date(day + BUSINESS_UTC_OFFSET_MS).getUTCDay(); // 0 = Sunday
  return day - ((weekday + 6) % 7) * DAY_MS;
}

/** A business day as YYYY-MM-DD (the wire's day label). */
export const businessDateLabel = (ms: number): string => new Date(ms + BUSINESS_UTC_OFFSET_MS).toISOString().slice(0, 10);
