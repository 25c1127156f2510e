/**
 * The dashboard's range (docs/operators.md#ranges): the default (the last 7 days in the operator's
 * zone), the range the address names, and the date fields' changes — dates the stats would refuse are
 * never asked for: the range stays, with a note why.
 */
import { type ChangeEvent, useState } from 'react';
import { lastDays, rangeRefusal } from '../../../shared/day-range.ts';
import { DEFAULT_TIME_ZONE, dayIn } from '../../../shared/time-zone.ts';
import { setSearch } from './address.ts';
import type { AdminTexts } from './admin-texts.ts';
import type { Range } from './shared/admin-client.ts';
import { type Drill, drillSearch, rangeOf } from './shared/drill-down.ts';

/** The last 7 days up to today in `zone` (the operator's, docs/operators.md#days-and-time-zones), as the stats API's default. */
export function defaultRange(zone = DEFAULT_TIME_ZONE, now = Date.now()): Range {
  return lastDays(7, dayIn(zone, now));
}

const sameRange = (a: Range, b: Range) => a.from === b.from && a.to === b.to;

/**
 * The range to show once the stats name the operator's zone: still the default (UTC's last 7 days),
 * it becomes that zone's; anything else the operator chose stays. The very `shown` object is kept
 * whenever the days do not change — a new object of the same days is a new range to React, which
 * would load the figures again, and again with each answer.
 */
export function zonedRange(shown: Range, zone: string, now = Date.now()): Range {
  if (!sameRange(shown, defaultRange(DEFAULT_TIME_ZONE, now))) return shown;
  const zoned = defaultRange(zone, now);
  return sameRange(zoned, shown) ? shown : zoned;
}

/**
 * The range shown, started from the address (`search`), and the date fields' handler: a change the
 * stats would refuse stays in the fields (`shown`) with a note, and the figures keep their range.
 */
export function useRange(search: URLSearchParams, drill: Drill | null, t: AdminTexts) {
  // Dates the stats would refuse are never asked for: the default range is shown, with a note why.
  const [start] = useState(() => {
    const named = rangeOf(search);
    const range = named && !('refused' in named) ? named : defaultRange();
    return { range, note: named && 'refused' in named ? t.rangeRefused(named.refused, range) : '' };
  });
  const [range, setRange] = useState<Range>(start.range);
  // What the date fields hold while it is not a range to show (a year being typed, a day past the bounds).
  const [draft, setDraft] = useState<Range | null>(null);
  const [note, setNote] = useState(start.note);

  const setDay = (end: keyof Range) => (event: ChangeEvent<HTMLInputElement>) => {
    if (!event.target.value) return;
    const next = { ...(draft ?? range), [end]: event.target.value };
    const refused = rangeRefusal(next);
    setDraft(refused ? next : null);
    setNote(refused ? t.rangeRefused(refused, range) : '');
    if (refused) return;
    setRange(next);
    if (drill) setSearch(drillSearch(drill, next), true);
  };
  return { range, setRange, shown: draft ?? range, note, setDay };
}
