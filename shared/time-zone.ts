/**
 * Days in the operator's time zone (docs/operators.md#days-and-time-zones): `funnel.time_zone` of
 * the configuration (docs/config.md) dates the funnel's counted events and the stats' "today".
 */

/** The zone used when the configuration names none. */
export const DEFAULT_TIME_ZONE = 'UTC';

// One formatter per zone: making one costs far more than formatting with it.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    // en-CA formats a date as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether `zone` is an IANA time zone name this runtime knows (`UTC`, `Asia/Shanghai`). */
export function isTimeZone(zone: string): boolean {
  // The default needs no formatter: the schema checks it for every configuration without a zone,
  // the bundled demo's among them at start-up, where a first zone formatter loads the runtime's
  // time zone data (about 20 ms, docs/benchmarks.md).
  if (zone === DEFAULT_TIME_ZONE) return true;
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** A day in milliseconds: a UTC day's length (a zone's day may be an hour longer or shorter). */
export const DAY_MS = 86_400_000;
let today = { start: Number.NaN, day: '' };

/** The UTC day of `time` (ms), `YYYY-MM-DD`. */
export function utcDay(time: number): string {
  // Every event of a day asks for the same string: made once per day, not per event.
  if (time >= today.start && time < today.start + DAY_MS) return today.day;
  const day = new Date(time).toISOString().slice(0, 10);
  today = { start: Date.parse(day), day };
  return day;
}

/** The day of `time` (ms) in `zone`, `YYYY-MM-DD`; throws a RangeError for an unknown zone. */
export function dayIn(zone: string, time: number): string {
  if (zone === DEFAULT_TIME_ZONE) return utcDay(time);
  const parts = formatterOf(zone).formatToParts(time);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
