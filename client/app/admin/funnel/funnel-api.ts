/**
 * The funnel room's calls to `/api/stats` (docs/operators.md): the rows of a grouping over a range,
 * with the previous period's totals and the operator's zone, and the same as a CSV file.
 */
import type { StatsGrouping, StatsRow } from '../../../../shared/admin-contract.ts';
import type { HttpClient } from '../../http-client.ts';
import type { Range } from '../shared/admin-client.ts';
import type { StatsFilter } from '../shared/drill-down.ts';

/** `/api/stats` groupings (shared/admin-contract.ts). */
export type Grouping = StatsGrouping;

export type { StatsFilter, StatsRow };

/** The stats calls, through `client` with `headers`. */
export function funnelApi(client: HttpClient, headers: Record<string, string>) {
  const statsUrl = (by: Grouping, range: Range, filter: StatsFilter = {}) =>
    `/api/stats?${new URLSearchParams({ ...range, by, ...filter })}`;
  return {
    async stats(by: Grouping, range: Range, filter?: StatsFilter): Promise<StatsRow[]> {
      return (await client<{ rows: StatsRow[] }>(statsUrl(by, range, filter), { headers })).rows;
    },
    /**
     * The rows, with the previous period's totals (docs/operators.md#compared-with-the-previous-period)
     * and the zone the days are in (docs/operators.md#days-and-time-zones).
     */
    compared(
      by: Grouping,
      range: Range,
      filter?: StatsFilter,
    ): Promise<{ rows: StatsRow[]; previous?: { totals: StatsRow }; timeZone?: string }> {
      return client(`${statsUrl(by, range, filter)}&compare=previous`, { headers });
    },
    /** The stats as CSV (`Accept: text/csv`), saved as a file. */
    async downloadCsv(by: Grouping, range: Range): Promise<void> {
      const csv = await client<string>(statsUrl(by, range), { headers: { ...headers, accept: 'text/csv' } });
      const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `lander-${by}-${range.from}-${range.to}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    },
  };
}

export type FunnelApi = ReturnType<typeof funnelApi>;
