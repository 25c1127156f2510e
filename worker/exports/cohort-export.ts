/**
 * Cohorts in the daily export (docs/webhooks.md#exports, docs/operators.md#cohorts): the cohort
 * rollups of the install days whose figures may still change (the last `COHORT_KEEP_DAYS`, up to the
 * exported day) as they stand, written as Parquet (`hyparquet-writer`) beside the events' NDJSON:
 * `exports/cohorts/date=YYYY-MM-DD/part-N.parquet`, read by DuckDB, Spark or pandas as they are. A
 * row is one cohort_daily row: install day, campaign, method, day after the install, metric, count.
 * No install or person is in it. Writing a day again replaces its parts, as the events' do.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { appObjectPrefix } from '../../shared/apps.ts';
import { addDays } from '../../shared/day-range.ts';
import { COHORT_KEEP_DAYS } from '../funnel/cohort-fold.ts';

/** Rows per part: a part's columns stay a few megabytes in a worker's memory. */
export const COHORT_PART_ROWS = 100_000;
/** Rows read from D1 at a time. */
const PAGE = 10_000;

/** The R2 folder of an app's cohorts exported on `day`. */
export const cohortPrefix = (app: string, day: string): string => `${appObjectPrefix(app)}exports/cohorts/date=${day}/`;

/** The R2 key of part `n` of an app's cohorts exported on `day`. */
export const cohortPartKey = (app: string, day: string, n: number): string =>
  `${cohortPrefix(app, day)}part-${n}.parquet`;

interface Row {
  day: string;
  channel: string;
  inviter: string;
  link: string;
  variant: string;
  method: string;
  age: number;
  metric: string;
  n: number;
}

const TEXT = ['channel', 'inviter', 'link', 'variant', 'method', 'metric'] as const;
const KEY = 'day, channel, inviter, link, variant, method, age, metric';
const PAGE_QUERY =
  `SELECT ${KEY}, n FROM cohort_daily WHERE app = ?1 AND day BETWEEN ?2 AND ?3 AND (${KEY}) > (?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ` +
  `ORDER BY ${KEY} LIMIT ${PAGE}`;

/** `rows` as one Parquet file: `install_day` and the texts as strings, `age` INT32, `n` INT64. */
function parquetOf(rows: readonly Row[]): ArrayBuffer {
  return parquetWriteBuffer({
    columnData: [
      { name: 'install_day', data: rows.map((row) => row.day), type: 'STRING', nullable: false },
      ...TEXT.map((name) => ({ name, data: rows.map((row) => row[name]), type: 'STRING' as const, nullable: false })),
      { name: 'age', data: rows.map((row) => row.age), type: 'INT32', nullable: false },
      { name: 'n', data: rows.map((row) => BigInt(row.n)), type: 'INT64', nullable: false },
    ],
    createdBy: 'lander',
  });
}

/** Writes app `app`'s cohorts as they stand on `day`; answers how many rows. */
export async function exportCohorts(env: Env, app: string, day: string): Promise<number> {
  const written = new Set<string>();
  let part: Row[] = [];
  let total = 0;
  const flush = async () => {
    const key = cohortPartKey(app, day, written.size);
    await env.EXPORTS.put(key, parquetOf(part), {
      httpMetadata: { contentType: 'application/vnd.apache.parquet' },
      customMetadata: { rows: String(part.length) },
    });
    written.add(key);
    part = [];
  };
  let after: unknown[] = ['', '', '', '', '', '', -1, ''];
  for (;;) {
    const { results } = await env.FUNNEL_DB.prepare(PAGE_QUERY)
      .bind(app, addDays(day, -COHORT_KEEP_DAYS), day, ...after)
      .all<Row>();
    for (const row of results) {
      part.push(row);
      total += 1;
      if (part.length === COHORT_PART_ROWS) await flush();
    }
    const last = results.at(-1);
    if (!last || results.length < PAGE) break;
    after = [last.day, ...TEXT.slice(0, 5).map((name) => last[name]), last.age, last.metric];
  }
  if (part.length > 0) await flush();
  const stale = await env.EXPORTS.list({ prefix: cohortPrefix(app, day) });
  const gone = stale.objects.map((object) => object.key).filter((key) => !written.has(key));
  if (gone.length > 0) await env.EXPORTS.delete(gone);
  return total;
}
