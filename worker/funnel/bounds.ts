/**
 * The funnel's bounds (docs/operators.md#bounds): how large one app event's value may be, how large a
 * stored sum of values may grow, and how much one install and one app may add to the figures. The
 * API refuses a value past its bound (400); the consumer holds every value and sum within theirs
 * whatever reaches it (a message queued before the bound existed), so D1 never sees a non-finite sum.
 */

import { MAX_EVENT_VALUE } from '../facts.ts';

/**
 * The largest `value_sum` one funnel_daily row holds, either sign: a million events at the largest
 * value. Far below the largest double, so a read that adds up every row of a range stays finite too.
 */
export const MAX_VALUE_SUM = 1e18;

/** `MAX_VALUE_SUM` as an SQL literal: a REAL (`1e+18`), so SQLite's SUM of clamped rows never overflows an integer. */
export const SQL_MAX_VALUE_SUM = MAX_VALUE_SUM.toExponential();

/**
 * The largest `amount` (and `refunds`) one funnel_revenue row holds, in minor units, either sign: a
 * thousand events at the largest amount (docs/operators.md#revenue). Below 2^53, so every stored sum
 * and every sum of up to nine of them is an exact integer in JavaScript as in SQLite.
 */
export const MAX_REVENUE_SUM = 1e15;

/** App events of one install the funnel counts per day; the rest are counted as `events-over-cap`. */
export const EVENTS_PER_INSTALL_DAY = 1000;
/** Opens of one install the funnel counts per day; the rest are counted as `opens-over-cap`. */
export const OPENS_PER_INSTALL_DAY = 100;
/** Distinct event names one app is counted under; a newer name is counted under `OTHER_EVENT_NAME`. */
export const EVENT_NAMES_PER_APP = 500;
/** Where an app's events past its names' cap are counted: no app can send it (EVENT_NAME refuses `(`). */
export const OTHER_EVENT_NAME = '(other)';

/** `value` held within `±bound`. */
export const clamp = (value: number, bound: number): number => Math.min(bound, Math.max(-bound, value));

/**
 * What an app event's value adds to its sum: a finite value held within `±MAX_EVENT_VALUE`; nothing
 * for a value that is no finite number (±Infinity and NaN, or the null JSON writes for them), which
 * only a message queued before the API's bound can carry.
 */
export const heldValue = (value: number | null | undefined): number =>
  typeof value === 'number' && Number.isFinite(value) ? clamp(value, MAX_EVENT_VALUE) : 0;
