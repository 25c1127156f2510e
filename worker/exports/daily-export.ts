/**
 * The daily export (docs/webhooks.md#exports): a day's events from D1 as gzip NDJSON in R2, one
 * folder per kind and day, `exports/<kind>/date=YYYY-MM-DD/part-N.ndjson.gz` (the Hive layout
 * BigQuery, Athena and DuckDB read as a `date` column). A line is the webhook body with its
 * `webhook-id` as `id`. Writing a day again replaces its parts: parts left from an earlier, larger
 * run are removed, so a re-run is idempotent.
 *
 * Each app exports its own events (docs/routes.md#apps): `default` under today's keys, another app
 * under `apps/<id>/exports/…`.
 */
import { appObjectPrefix, DEFAULT_APP } from '../../shared/apps.ts';
import { EXPORT_KINDS, type ExportKind } from '../../shared/webhooks.ts';
import { webhookId } from '../webhooks/messages.ts';
import { exportCohorts } from './cohort-export.ts';

/** Lines per part: a part stays a few megabytes, well inside a worker's memory. */
export const PART_LINES = 20_000;
/** Rows read from D1 at a time. */
const PAGE = 5_000;

/** The R2 folder of an app's kind's day. */
export const dayPrefix = (app: string, kind: ExportKind, day: string): string =>
  `${appObjectPrefix(app)}exports/${kind}/date=${day}/`;

/** The R2 key of part `n` of an app's kind's day. */
export const partKey = (app: string, kind: ExportKind, day: string, n: number): string =>
  `${dayPrefix(app, kind, day)}part-${n}.ndjson.gz`;

interface Row {
  id: string;
  at: number;
  body: string;
}

const PAGE_QUERY =
  'SELECT id, at, body FROM webhook_events WHERE app = ?5 AND day = ?1 AND kind = ?2 AND (at > ?3 OR (at = ?3 AND id > ?4)) ' +
  `ORDER BY at, id LIMIT ${PAGE}`;

/** An export line: `{"id":"msg_…",` then the webhook body's own fields. */
const lineOf = (row: Row): string => `{"id":${JSON.stringify(webhookId(row.id))},${row.body.slice(1)}`;

async function gzip(text: string): Promise<ArrayBuffer> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

async function writePart(bucket: R2Bucket, key: string, lines: readonly string[]): Promise<void> {
  await bucket.put(key, await gzip(`${lines.join('\n')}\n`), {
    httpMetadata: { contentType: 'application/gzip' },
    customMetadata: { lines: String(lines.length) },
  });
}

/** Writes one kind's day; answers its number of lines. */
async function exportKind(env: Env, app: string, kind: ExportKind, day: string): Promise<number> {
  const written = new Set<string>();
  let lines: string[] = [];
  let total = 0;
  let after = { at: -1, id: '' };
  const flush = async () => {
    const key = partKey(app, kind, day, written.size);
    await writePart(env.EXPORTS, key, lines);
    written.add(key);
    lines = [];
  };
  for (;;) {
    const page = await env.FUNNEL_DB.prepare(PAGE_QUERY).bind(day, kind, after.at, after.id, app).all<Row>();
    for (const row of page.results) {
      lines.push(lineOf(row));
      total += 1;
      if (lines.length === PART_LINES) await flush();
    }
    const last = page.results.at(-1);
    if (!last || page.results.length < PAGE) break;
    after = { at: last.at, id: last.id };
  }
  if (lines.length > 0) await flush();
  // Parts of an earlier run that this one did not write again.
  const stale = await env.EXPORTS.list({ prefix: dayPrefix(app, kind, day) });
  const gone = stale.objects.map((object) => object.key).filter((key) => !written.has(key));
  if (gone.length > 0) await env.EXPORTS.delete(gone);
  return total;
}

/** Writes every kind of app `app`'s `day` (`YYYY-MM-DD`); answers the lines written per kind. */
export async function exportDay(env: Env, app: string, day: string): Promise<Record<ExportKind, number>> {
  const counts = {} as Record<ExportKind, number>;
  for (const kind of EXPORT_KINDS) counts[kind] = await exportKind(env, app, kind, day);
  return counts;
}

/**
 * The apps with events on day `?1`, read by skipping through the `(app, day, kind, at)` index from
 * one app to the next (migrations/0011_apps.sql `webhook_events_day`): a few rows per app kept, not
 * the 30 days of every app's events a `SELECT DISTINCT app … WHERE day = ?` would scan.
 */
export const APPS_OF_DAY =
  'WITH RECURSIVE apps (app) AS (SELECT MIN(app) FROM webhook_events UNION ALL ' +
  'SELECT (SELECT MIN(app) FROM webhook_events WHERE app > apps.app) FROM apps WHERE apps.app IS NOT NULL) ' +
  'SELECT app FROM apps WHERE app IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_events AS e WHERE e.app = apps.app AND e.day = ?1)';

/**
 * Writes `day` of every app that had events that day, and of `default` always (as before apps), and
 * each one's cohorts; answers the lines (and cohort rows) written per app and kind.
 */
export async function exportEveryApp(
  env: Env,
  day: string,
): Promise<Record<string, Record<ExportKind | 'cohorts', number>>> {
  const { results } = await env.FUNNEL_DB.prepare(APPS_OF_DAY).bind(day).all<{ app: string }>();
  const apps = new Set([DEFAULT_APP, ...results.map((row) => row.app)]);
  const counts: Record<string, Record<ExportKind | 'cohorts', number>> = {};
  // The events' lines, then the cohorts as they stand (cohort-export.ts, docs/operators.md#cohorts).
  for (const app of apps)
    counts[app] = { ...(await exportDay(env, app, day)), cohorts: await exportCohorts(env, app, day) };
  return counts;
}
