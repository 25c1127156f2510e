/**
 * The previous period (docs/operators.md#compared-with-the-previous-period): with `compare=previous`,
 * the stats answer carries the totals of the range of the same length just before, under the same
 * filters, so a change can stand beside each headline figure. Totals add the days up, as the
 * console's headline does: a visitor seen on two days counts on each (the hash changes every day).
 */
import type { StatsRow } from '../../shared/admin-contract.ts';
import type { FraudRule } from '../../shared/config/schema.ts';
import { ratesOf } from '../../shared/stats-rates.ts';
import { DAY_MS, utcDay } from '../../shared/time-zone.ts';
import { countedInstalls } from './flagged-counts.ts';
import { addRevenue } from './revenue.ts';
import { add, emptyRow, readStats, type StatsQuery, type StatsResult } from './stats-query.ts';

/** The range of the same length that ends the day before `from`. */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const start = Date.parse(from);
  const length = Date.parse(to) - start + DAY_MS;
  return { from: utcDay(start - length), to: utcDay(start - DAY_MS) };
}

const addInto = (into: Record<string, number>, from: Record<string, number>): void => {
  for (const [name, count] of Object.entries(from)) add(into, name, count);
};

/** `rows` added up into one row keyed `key`, its rates those of the sums (not an average of rates). */
export function totalOf(key: string, rows: readonly StatsRow[]): StatsRow {
  const total = emptyRow(key);
  for (const row of rows) {
    for (const name of ['views', 'visitors', 'taps', 'installs', 'opens', 'attributed', 'organic'] as const)
      total[name] += row[name];
    for (const name of ['events', 'values', 'byPage', 'byAction', 'byMethod', 'byUnmatched'] as const)
      addInto(total[name], row[name]);
    total.flagged.installs += row.flagged.installs;
    total.flagged.excluded += row.flagged.excluded;
    addInto(total.flagged.byRule, row.flagged.byRule);
    for (const [currency, figure] of Object.entries(row.revenue ?? {})) addRevenue(total, currency, figure);
  }
  total.countedInstalls = countedInstalls(total);
  total.rates = ratesOf(total);
  return total;
}

/** `readStats`, with the previous period's totals when the query asks `compare=previous`. */
export async function readStatsCompared(
  db: D1Database,
  app: string,
  query: StatsQuery,
  exclude: readonly FraudRule[] = [],
): Promise<StatsResult> {
  if (query.compare !== 'previous') return readStats(db, app, query, exclude);
  const range = previousRange(query.from, query.to);
  const [result, before] = await Promise.all([
    readStats(db, app, query, exclude),
    readStats(db, app, { ...query, ...range, by: 'day' }, exclude),
  ]);
  return { ...result, previous: { ...range, totals: totalOf('', before.rows) } };
}
