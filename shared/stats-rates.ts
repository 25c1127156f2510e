/**
 * The funnel's split and rates (docs/operators.md#rates), one arithmetic for the stats API, the CSV,
 * `npm run stats` and the console. An install is attributed when a carrier or the probabilistic
 * match found its tap, organic when nothing did (none, ambiguous, expired): a channel's installs are
 * its attributed ones, and the organic ones stand apart.
 */

/** What the rollups call an unmatched install: `install:unmatched:<reason>` (byMethod's `unmatched:` keys). */
const UNMATCHED = 'unmatched:';

/** The rates of one row: a share (0–1), or null when the share is of nothing. */
export interface Rates {
  /** Taps ÷ views. */
  tap: number | null;
  /** Attributed installs ÷ taps. */
  install: number | null;
  /** Per app event name: its count ÷ installs (attributed and organic: an organic install's events count too). */
  events: Record<string, number | null>;
}

/** The figures the split and the rates read. */
export interface SplitSource {
  views: number;
  taps: number;
  installs: number;
  byMethod: Record<string, number>;
  events: Record<string, number>;
}

/** `part ÷ whole`, rounded to 4 places (0.01 %); null when `whole` is 0. */
export function rate(part: number, whole: number): number | null {
  if (whole <= 0) return null;
  return Math.round((part / whole) * 10_000) / 10_000;
}

/** A rate as a percentage with one decimal, `12.5%`; `–` for a share of nothing. */
export function percent(value: number | null): string {
  return value === null ? '–' : `${(Math.round(value * 1000) / 10).toFixed(1)}%`;
}

/** A row's installs apart: attributed by method, organic by reason. */
export function splitInstalls(byMethod: Record<string, number>): {
  attributed: number;
  organic: number;
  byAttributed: Record<string, number>;
  byUnmatched: Record<string, number>;
} {
  let attributed = 0;
  let organic = 0;
  const byAttributed: Record<string, number> = {};
  const byUnmatched: Record<string, number> = {};
  for (const [method, count] of Object.entries(byMethod)) {
    if (method.startsWith(UNMATCHED)) {
      organic += count;
      const reason = method.slice(UNMATCHED.length);
      byUnmatched[reason] = (byUnmatched[reason] ?? 0) + count;
    } else {
      attributed += count;
      byAttributed[method] = (byAttributed[method] ?? 0) + count;
    }
  }
  return { attributed, organic, byAttributed, byUnmatched };
}

/** The rates of `row` (docs/operators.md#rates). */
export function ratesOf(row: SplitSource): Rates {
  const { attributed } = splitInstalls(row.byMethod);
  const events: Record<string, number | null> = {};
  for (const [name, count] of Object.entries(row.events)) events[name] = rate(count, row.installs);
  return { tap: rate(row.taps, row.views), install: rate(attributed, row.taps), events };
}

/** Several rows added up into one (the console's headline; the previous period's totals). */
export function sumRows<Row extends SplitSource>(rows: readonly Row[]): SplitSource {
  const total: SplitSource = { views: 0, taps: 0, installs: 0, byMethod: {}, events: {} };
  for (const row of rows) {
    total.views += row.views;
    total.taps += row.taps;
    total.installs += row.installs;
    for (const [name, count] of Object.entries(row.byMethod))
      total.byMethod[name] = (total.byMethod[name] ?? 0) + count;
    for (const [name, count] of Object.entries(row.events)) total.events[name] = (total.events[name] ?? 0) + count;
  }
  return total;
}
