/**
 * The days a stats range may name (docs/operators.md#ranges), in one place for the worker's stats and
 * fraud APIs, the console (which applies them to what its address says) and the CLIs (`npm run stats`,
 * `npm run export`). A day is `YYYY-MM-DD`, from {@link FIRST_DAY} to {@link lastDay}; a range holds
 * at most {@link MAX_RANGE_DAYS} days, both ends included. Days are walked by count, never by comparing
 * strings: past 9999-12-31 a date's ISO string becomes `+010000-…`, which sorts before `9999-…`, and a
 * loop that compared strings never ended.
 */
import { DAY_MS, utcDay } from './time-zone.ts';

/** The first day any range may name: nothing Lander counts is older. */
export const FIRST_DAY = '2000-01-01';
/** The longest range, in days, both ends included: a leap year. */
export const MAX_RANGE_DAYS = 366;

// The zone furthest ahead of UTC (Pacific/Kiritimati, UTC+14): its today is the latest today on Earth.
const FURTHEST_AHEAD_MS = 14 * 3_600_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The last day a range may name at `now` (ms): tomorrow in the zone furthest ahead, so every time
 * zone's today, and a clock a little fast, still fit.
 */
export const lastDay = (now = Date.now()): string => utcDay(now + FURTHEST_AHEAD_MS + DAY_MS);

/** Whether `text` is a day of the calendar, `YYYY-MM-DD` (not `2026-02-30`). */
export function isDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const time = Date.parse(text);
  return !Number.isNaN(time) && utcDay(time) === text;
}

/** `day` moved by `days` (negative: back). */
export const addDays = (day: string, days: number): string => utcDay(Date.parse(day) + days * DAY_MS);

/** How many days `from` to `to` covers, both included (0 when `to` is before `from`). */
export const daysIn = (from: string, to: string): number =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1);

/** `count` days from `from` on, at most {@link MAX_RANGE_DAYS}: the loop is bounded by the count. */
export function eachDay(from: string, count: number): string[] {
  const days: string[] = [];
  const start = Date.parse(from);
  for (let at = 0; at < Math.min(count, MAX_RANGE_DAYS); at += 1) days.push(utcDay(start + at * DAY_MS));
  return days;
}

/**
 * Why `text`, given as `field`, is not a day a range may name at `now`, as `<field>: <reason>` (the
 * admin APIs' refusals, docs/operators.md); undefined when it is one.
 */
export function dayRefusal(field: string, text: string, now = Date.now()): string | undefined {
  if (!isDay(text)) return `${field}: must be a date, YYYY-MM-DD`;
  if (text < FIRST_DAY) return `${field}: must not be before ${FIRST_DAY}`;
  const last = lastDay(now);
  if (text > last) return `${field}: must not be after ${last}`;
  return undefined;
}

/** A range of days, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * Why `from`…`to` is not a range to read at `now` (each end a day within the bounds, `from` not after
 * `to`, at most {@link MAX_RANGE_DAYS} days), as `<field>: <reason>`; undefined when it is one.
 */
export function rangeRefusal({ from, to }: DayRange, now = Date.now()): string | undefined {
  const refused = dayRefusal('from', from, now) ?? dayRefusal('to', to, now);
  if (refused) return refused;
  if (from > to) return 'from: must not be after to';
  if (daysIn(from, to) > MAX_RANGE_DAYS) return `from: at most ${MAX_RANGE_DAYS} days before to, both included`;
  return undefined;
}

/**
 * The `count` days ending `today`, both ends included: what `7d` means to `npm run stats`,
 * `npm run export` and the console's default range alike (docs/operators.md#ranges).
 */
export const lastDays = (count: number, today: string): DayRange => ({ from: addDays(today, 1 - count), to: today });
