/** The cohorts room's call to `GET /api/cohorts` (docs/operators.md#cohorts). */
import type { CohortGrouping, CohortsAnswer } from '../../../../shared/cohorts.ts';
import type { HttpClient } from '../../http-client.ts';
import type { Range } from '../shared/admin-client.ts';

export type { CohortsAnswer };

/** The cohorts call, through `client` with `headers`. */
export function cohortsApi(client: HttpClient, headers: Record<string, string>) {
  return {
    /** The cohorts of `range`, by install day and `by`, each counted up to day `ages`. */
    cohorts(range: Range, by: CohortGrouping, ages: number): Promise<CohortsAnswer> {
      const query = new URLSearchParams({ from: range.from, to: range.to, by, ages: String(ages) });
      return client<CohortsAnswer>(`/api/cohorts?${query}`, { headers });
    },
  };
}

export type CohortsApi = ReturnType<typeof cohortsApi>;
