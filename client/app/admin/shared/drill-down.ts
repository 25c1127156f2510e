/**
 * Which drill-down the console shows (docs/operators.md#drill-down), held in the address's query
 * string so a view can be shared: `?channel=spring-sale&from=2026-11-01&to=2026-11-07` opens that
 * channel over that range. `?channel=` (empty) is the "(none)" channel: the organic installs.
 */
import { rangeRefusal } from '../../../../shared/day-range.ts';
import type { Range } from './admin-client.ts';

/** What can be opened: a channel, an inviter or a short link. */
export const DRILLABLE = ['channel', 'inviter', 'link'] as const;
export type Drillable = (typeof DRILLABLE)[number];

/** The stats API's filters: only events of that channel, inviter or short link. */
export type StatsFilter = Partial<Record<Drillable, string>>;

/** How a table opens a row's drill-down: the address of its view, and opening it in place. */
export interface Opener {
  hrefOf: (key: string) => string;
  onOpen: (key: string) => void;
}

export interface Drill {
  by: Drillable;
  key: string;
}

/** The drill-down `search` names, if any (the first of channel, inviter, link it holds). */
export function drillOf(search: URLSearchParams): Drill | null {
  for (const by of DRILLABLE) {
    const key = search.get(by);
    if (key !== null) return { by, key: key.slice(0, 128) };
  }
  return null;
}

/**
 * The range `search` names: null when it names none, else the range, or why the stats could not read
 * it (the API's bounds, shared/day-range.ts) — the console then shows its default range and says so,
 * rather than calling the API with dates it refuses.
 */
export function rangeOf(search: URLSearchParams, now = Date.now()): Range | { refused: string } | null {
  const from = search.get('from');
  const to = search.get('to');
  if (from === null && to === null) return null;
  const range = { from: from ?? '', to: to ?? '' };
  const refused = rangeRefusal(range, now);
  return refused ? { refused } : range;
}

/** The query string of `drill` over `range` (`?` alone for none). */
export function drillSearch(drill: Drill | null, range: Range): string {
  if (!drill) return `?${new URLSearchParams({ ...range })}`;
  return `?${new URLSearchParams({ [drill.by]: drill.key, ...range })}`;
}

/** The stats API's filter for `drill`. */
export const filterOf = (drill: Drill): StatsFilter => ({ [drill.by]: drill.key });
