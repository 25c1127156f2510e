/**
 * What the cohorts room draws, worked out from `/api/cohorts`' rows (docs/operators.md#cohorts): the
 * rows of one group added up by install day, the days the triangle shows, each group's curve.
 */
import { type CohortRow, retentionCurve, share } from '../../../../shared/cohorts.ts';

/** `''` for every group together. */
export const ALL = '\u0000all';

/** The days after the install the triangle shows: the usual D0–D3, D7, D14, D30 and then D60, D90. */
export const shownAges = (ages: number): number[] => [0, 1, 2, 3, 7, 14, 30, 60, 90].filter((age) => age <= ages);

const addNullable = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a === null || a === undefined || b === null || b === undefined ? null : a + b;

/** `rows` of group `key` (ALL: every group) added up per install day, in day order. */
export function byInstallDay(rows: readonly CohortRow[], key: string): CohortRow[] {
  const days = new Map<string, CohortRow>();
  for (const row of rows) {
    if (key !== ALL && row.key !== key) continue;
    const sum = days.get(row.day);
    if (!sum) {
      days.set(row.day, { ...row, key: '', retained: [...row.retained], value: { ...row.value } });
      continue;
    }
    sum.installs += row.installs;
    sum.retained = sum.retained.map((n, age) => addNullable(n, row.retained[age]));
    for (const [currency, values] of Object.entries(row.value)) {
      const before = sum.value[currency] ?? values.map((n) => (n === null ? null : 0));
      sum.value[currency] = before.map((n, age) => addNullable(n, values[age]));
    }
  }
  return [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

/** The groups of `rows`, most installs first, with their installs. */
export function groupsOf(rows: readonly CohortRow[]): { key: string; installs: number }[] {
  const installs = new Map<string, number>();
  for (const row of rows) installs.set(row.key, (installs.get(row.key) ?? 0) + row.installs);
  return [...installs.entries()]
    .map(([key, n]) => ({ key, installs: n }))
    .sort((a, b) => b.installs - a.installs || (a.key < b.key ? -1 : 1));
}

/** A triangle cell: retention's share, or value per install in minor units; null when not reached. */
export function cellOf(row: CohortRow, age: number, currency: string | null): number | null {
  if (currency === null) {
    const n = row.retained[age];
    return n === null || n === undefined ? null : share(n, row.installs);
  }
  if (row.retained[age] === null || row.installs === 0) return null;
  return (row.value[currency]?.[age] ?? 0) / row.installs;
}

/** Each group's retention curve (its cohorts added up). */
export function curvesOf(rows: readonly CohortRow[], ages: number, limit: number) {
  return groupsOf(rows)
    .slice(0, limit)
    .map(({ key, installs }) => ({
      key,
      installs,
      curve: retentionCurve(
        rows.filter((row) => row.key === key),
        ages,
      ),
    }));
}

/** The currencies `rows` have value in. */
export const currenciesOf = (rows: readonly CohortRow[]): string[] =>
  [...new Set(rows.flatMap((row) => Object.keys(row.value)))].sort();
