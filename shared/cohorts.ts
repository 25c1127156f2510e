/**
 * `GET /api/cohorts`' answer (docs/operators.md#cohorts), as the worker gives it and the console
 * reads it: installs grouped by install day (the operator's day) and one more grouping, each cohort
 * with its installs retained on day 0…`ages` after and its cumulative value per currency.
 */

/** What a cohort table may be grouped by beside its install day (`day`: no more). */
export const COHORT_GROUPINGS = ['day', 'channel', 'inviter', 'link', 'variant', 'method'] as const;
export type CohortGrouping = (typeof COHORT_GROUPINGS)[number];

/** The days after the install a cohort counts: 0–90. */
export const MAX_COHORT_AGES = 90;
/** The days after the install an answer shows when the query does not say. */
export const DEFAULT_COHORT_AGES = 30;

/** One cohort: the installs of one install day and group. */
export interface CohortRow {
  /** The install day, `YYYY-MM-DD` in the operator's zone. */
  day: string;
  /** The group's value (`''`: none; always `''` by day). */
  key: string;
  installs: number;
  /** Installs seen (any app event or open) on day N after their install; null for a day still to come. */
  retained: (number | null)[];
  /** Per ISO 4217 currency, the amount in minor units its installs' app events carried up to day N; null to come. */
  value: Record<string, (number | null)[]>;
}

export interface CohortsAnswer {
  from: string;
  to: string;
  by: CohortGrouping;
  /** The last day after the install each row counts up to. */
  ages: number;
  channel?: string;
  inviter?: string;
  link?: string;
  /** The IANA zone the days are in (`funnel.time_zone`). */
  timeZone: string;
  /** The operator's today: a row's day N is counted once its install day + N is no later. */
  today: string;
  /** By install day, then by group (most installs first). */
  rows: CohortRow[];
}

/** `part ÷ whole` rounded to 4 places, null for a share of nothing (as shared/stats-rates.ts). */
export const share = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

/**
 * The retention curve of `rows` added up: on day N, the retained of the cohorts that reached day N
 * over their installs (a cohort still to reach it counts in neither), null where none has.
 */
export function retentionCurve(rows: readonly CohortRow[], ages: number): (number | null)[] {
  return Array.from({ length: ages + 1 }, (_, age) => {
    let retained = 0;
    let installs = 0;
    for (const row of rows) {
      const n = row.retained[age];
      if (n === null || n === undefined) continue;
      retained += n;
      installs += row.installs;
    }
    return share(retained, installs);
  });
}
