/**
 * Times in the operator's zone (docs/operators.md#days-and-time-zones): the console reports days in
 * `funnel.time_zone`, so every time it shows — a webhook attempt, a link's expiry — is that zone's
 * wall clock too, and a time the operator types is read in it.
 */

// One formatter per zone: making one costs far more than formatting with it.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** `time` (ms) on `zone`'s wall clock as `YYYY-MM-DDTHH:mm:ss`. */
function wallClock(zone: string, time: number): string {
  const parts = formatterOf(zone).formatToParts(time);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}`;
}

/** `iso` as `YYYY-MM-DD HH:mm:ss` in `zone`; an unreadable time is shown as it came. */
export function timeIn(zone: string, iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : wallClock(zone, time).replace('T', ' ');
}

/** `iso` as a `datetime-local` value (`YYYY-MM-DDTHH:mm`) in `zone`. */
export function localInputIn(zone: string, iso: string): string {
  return wallClock(zone, Date.parse(iso)).slice(0, 16);
}

/**
 * The instant (ms) at which `zone`'s wall clock reads `local` (`YYYY-MM-DDTHH:mm`, a `datetime-local`
 * value). In a repeated hour (clocks back) it is the earlier of the two; in a skipped one (clocks
 * forward) it is read with the offset before the change, as a clock not yet put forward would.
 */
export function instantIn(zone: string, local: string): number {
  const wall = Date.parse(`${local}Z`);
  // The zone's offset at a time, as wall clock minus UTC.
  const offset = (time: number) => Date.parse(`${wallClock(zone, time)}Z`) - time;
  // A change of offset near the wall clock has the offset before it a day earlier and the one after it
  // a day later: each offset the day holds gives a candidate, and those that read back are the answers.
  const before = offset(wall - DAY_MS);
  const candidates = [before, offset(wall), offset(wall + DAY_MS)].map((shift) => wall - shift);
  const reads = candidates.filter((time) => wallClock(zone, time).slice(0, 16) === local);
  return reads.length > 0 ? Math.min(...reads) : wall - before;
}

const DAY_MS = 24 * 60 * 60 * 1000;
