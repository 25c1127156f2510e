/** The stats API's rows as a plain-text table for a terminal (docs/operators.md). */
import { isDay, lastDays, MAX_RANGE_DAYS } from '../../shared/day-range.ts';
import { percent } from '../../shared/stats-rates.ts';
import type { StatsRow } from '../../worker/funnel/stats-query.ts';

const HEAD = ['views', 'visitors', 'taps', 'tap%', 'attributed', 'install%', 'organic', 'installs', 'opens'];

/** App events by name, each with its rate over installs (docs/operators.md#rates). */
const events = (row: StatsRow): string =>
  Object.entries(row.events)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, count]) => `${name}=${count} (${percent(row.rates.events[name] ?? null)})`)
    .join(' ');

const cells = (row: StatsRow): string[] => [
  ...[row.views, row.visitors, row.taps].map(String),
  percent(row.rates.tap),
  String(row.attributed),
  percent(row.rates.install),
  String(row.organic),
  ...[row.installs, row.opens].map(String),
];

/**
 * `rows` under a header, numbers right-aligned, `(none)` for an empty key; each rate beside its count,
 * the installs attributed and organic apart, then all of them (docs/operators.md#rates); the fraud
 * rules' flagged installs and the counted installs beside the raw ones (docs/fraud.md); app events last.
 */
export function statsTable(by: string, rows: readonly StatsRow[]): string {
  const lines = [[by, ...HEAD, 'flagged', 'counted', 'events']];
  for (const row of rows)
    lines.push([
      row.key || '(none)',
      ...cells(row),
      String(row.flagged.installs),
      String(row.countedInstalls),
      events(row),
    ]);
  const widths = lines[0]?.map((_, at) => Math.max(...lines.map((line) => line[at]?.length ?? 0))) ?? [];
  return lines
    .map((line) =>
      line
        .map((cell, at) =>
          at === 0 || at === line.length - 1 ? cell.padEnd(widths[at] ?? 0) : cell.padStart(widths[at] ?? 0),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * `from` for `--since Nd`: the N days up to and including `to` (a day, shared/day-range.ts); undefined
 * unless N is 1 to 366, the most one range holds.
 */
export function sinceDay(since: string, to: string): string | undefined {
  const match = /^(\d{1,3})d$/.exec(since);
  const days = Number(match?.[1]);
  if (!match || days < 1 || days > MAX_RANGE_DAYS || !isDay(to)) return undefined;
  return lastDays(days, to).from;
}
