/**
 * The stats API's query (docs/operators.md): a date range, one dimension to group by, optional
 * filters, read from the daily rollups into one row per group. Visitors are counted from the visitor
 * rows, so a person seen under two groups counts once in each and once in a day; over several days
 * they add up day by day (the hash changes every day).
 */

import * as v from 'valibot';
import { STATS_GROUPINGS, type StatsGrouping, type StatsRow } from '../../shared/admin-contract.ts';
import type { FraudRule } from '../../shared/config/schema.ts';
import {
  addDays,
  dayRefusal,
  daysIn,
  eachDay,
  FIRST_DAY,
  isDay,
  MAX_RANGE_DAYS,
  rangeRefusal,
} from '../../shared/day-range.ts';
import { ratesOf } from '../../shared/stats-rates.ts';
import { DEFAULT_TIME_ZONE, dayIn } from '../../shared/time-zone.ts';
import { SQL_MAX_VALUE_SUM } from './bounds.ts';
import { addFlagged, countedInstalls, type FlaggedCount, flaggedQuery } from './flagged-counts.ts';
import { addRevenue, revenueQuery } from './revenue.ts';

const SUM_VALUES = `SUM(max(-${SQL_MAX_VALUE_SUM}, min(${SQL_MAX_VALUE_SUM}, value_sum)))`;

/** The rollups' column each grouping reads. */
const GROUPS = {
  day: 'day',
  channel: 'channel',
  inviter: 'inviter',
  link: 'link',
  os: 'os',
  inapp: 'inapp',
  country: 'country',
  lang: 'lang',
  'plain:channel': 'plain_channel',
  'plain:inviter': 'plain_inviter',
} as const satisfies Record<StatsGrouping, string>;

/** The longest range one request reads (shared/day-range.ts). */
export const MAX_DAYS = MAX_RANGE_DAYS;
/** Days a request without `from` covers, today included. */
export const DEFAULT_DAYS = 7;

export interface StatsQuery {
  from: string;
  to: string;
  by: StatsGrouping;
  channel?: string;
  inviter?: string;
  link?: string;
  /** `previous`: the answer carries the previous period's totals (worker/funnel/previous-period.ts). */
  compare?: 'previous';
}

export type { StatsRow };

export interface StatsResult extends StatsQuery {
  rows: StatsRow[];
  /** The range of the same length just before, added up, when the query asks `compare=previous`. */
  previous?: { from: string; to: string; totals: StatsRow };
  /** The IANA zone the days are in (`funnel.time_zone`, docs/operators.md#days-and-time-zones). */
  timeZone?: string;
}

const Day = (field: string) => v.optional(v.pipe(v.string(), v.check(isDay, `${field}: must be a date, YYYY-MM-DD`)));
const Filter = (field: string) => v.optional(v.pipe(v.string(), v.maxLength(128, `${field}: at most 128 characters`)));
/**
 * `GET /api/stats`'s query (the OpenAPI document describes it from here). Each refusal is
 * `<field>: <reason>`; the days' bounds are checked after, with today known (shared/day-range.ts).
 */
export const StatsQuerySchema = v.object({
  from: Day('from'),
  to: Day('to'),
  by: v.optional(v.picklist(STATS_GROUPINGS, `by: one of ${STATS_GROUPINGS.join(', ')}`), 'day'),
  channel: Filter('channel'),
  inviter: Filter('inviter'),
  link: Filter('link'),
  compare: v.optional(v.picklist(['previous'], 'compare: only previous')),
});

/**
 * The query of `params`, or the reason it is refused. `now` (ms) dates a missing `to`: today in
 * `zone`, the operator's time zone (docs/operators.md#days-and-time-zones).
 */
export function parseStatsQuery(
  params: Record<string, string>,
  now = Date.now(),
  zone = DEFAULT_TIME_ZONE,
): StatsQuery | { error: string } {
  const parsed = v.safeParse(StatsQuerySchema, params);
  if (!parsed.success) return { error: parsed.issues.map((issue) => issue.message).join('; ') };
  const { from: given, to = dayIn(zone, now), by, channel, inviter, link, compare } = parsed.output;
  // `to` first: a default `from` is counted back only from a day within the bounds, and not past the first.
  const toRefused = dayRefusal('to', to, now);
  if (toRefused) return { error: toRefused };
  const from = given ?? addDays(to, 1 - Math.min(DEFAULT_DAYS, daysIn(FIRST_DAY, to)));
  const refused = rangeRefusal({ from, to }, now);
  if (refused) return { error: refused };
  return {
    from,
    to,
    by,
    ...(channel === undefined ? {} : { channel }),
    ...(inviter === undefined ? {} : { inviter }),
    ...(link === undefined ? {} : { link }),
    ...(compare === undefined ? {} : { compare }),
  };
}

function where(app: string, query: StatsQuery): { sql: string; params: string[] } {
  const clauses = ['app = ?1', 'day BETWEEN ?2 AND ?3'];
  const params = [app, query.from, query.to];
  for (const name of ['channel', 'inviter', 'link'] as const) {
    const value = query[name];
    if (value === undefined) continue;
    params.push(value);
    clauses.push(`${name} = ?${params.length}`);
  }
  return { sql: clauses.join(' AND '), params };
}

/** A row of `key` with nothing counted yet. */
export const emptyRow = (key: string): StatsRow => ({
  key,
  views: 0,
  visitors: 0,
  taps: 0,
  installs: 0,
  opens: 0,
  events: {},
  values: {},
  byPage: {},
  byAction: {},
  byMethod: {},
  attributed: 0,
  organic: 0,
  byUnmatched: {},
  rates: { tap: null, install: null, events: {} },
  flagged: { installs: 0, byRule: {}, excluded: 0 },
  countedInstalls: 0,
  revenue: {},
});

const UNMATCHED = 'unmatched:';

/** Adds `count` to `record[name]`. */
export const add = (record: Record<string, number>, name: string, count: number): void => {
  record[name] = (record[name] ?? 0) + count;
};

/** Adds one rollup metric's count to `row`. */
export function addMetric(row: StatsRow, metric: string, count: number, valueSum: number): void {
  const at = metric.indexOf(':');
  const kind = at < 0 ? metric : metric.slice(0, at);
  const detail = at < 0 ? '' : metric.slice(at + 1);
  switch (kind) {
    case 'view':
      row.views += count;
      add(row.byPage, detail, count);
      break;
    case 'tap':
      row.taps += count;
      add(row.byAction, detail, count);
      break;
    case 'install':
      row.installs += count;
      add(row.byMethod, detail, count);
      // Attributed and organic apart (docs/operators.md#rates): `unmatched:<reason>` is organic.
      if (detail.startsWith(UNMATCHED)) {
        row.organic += count;
        add(row.byUnmatched, detail.slice(UNMATCHED.length), count);
      } else row.attributed += count;
      break;
    case 'open':
      row.opens += count;
      break;
    case 'event':
      add(row.events, detail, count);
      add(row.values, detail, valueSum);
      break;
  }
}

/**
 * Runs `query` against app `app`'s rollups in `db`, with the fraud rules' flagged installs beside them;
 * `exclude` names the rules whose flagged installs leave `countedInstalls` (docs/fraud.md).
 */
export async function readStats(
  db: D1Database,
  app: string,
  query: StatsQuery,
  exclude: readonly FraudRule[] = [],
): Promise<StatsResult> {
  const column = GROUPS[query.by];
  const filter = where(app, query);
  const [counts, visitors, flagged, revenue] = await db.batch<{
    key: string;
    metric?: string;
    count: number;
    value_sum?: number;
    rules?: string;
    currency?: string;
    events?: number;
    amount?: number;
    refunds?: number;
  }>([
    db
      .prepare(
        // Each row's sum within its bound (bounds.ts) before they are added: a row stored before the
        // bound may hold any double, and two of those would add up to Infinity (null in JSON).
        `SELECT ${column} AS key, metric, SUM(count) AS count, ${SUM_VALUES} AS value_sum FROM funnel_daily ` +
          `WHERE ${filter.sql} GROUP BY ${column}, metric`,
      )
      .bind(...filter.params),
    db
      .prepare(
        `SELECT ${column} AS key, COUNT(DISTINCT visitor) AS count FROM funnel_visitors WHERE ${filter.sql} GROUP BY ${column}`,
      )
      .bind(...filter.params),
    flaggedQuery(db, column, filter),
    revenueQuery(db, column, filter),
  ]);
  const rows = new Map<string, StatsRow>();
  const rowOf = (key: string): StatsRow => {
    const row = rows.get(key) ?? emptyRow(key);
    rows.set(key, row);
    return row;
  };
  // A daily series shows every day of the range, quiet ones as zeros.
  if (query.by === 'day') for (const day of eachDay(query.from, daysIn(query.from, query.to))) rowOf(day);
  for (const { key, metric = '', count, value_sum = 0 } of counts?.results ?? [])
    addMetric(rowOf(key), metric, count, value_sum);
  for (const { key, count } of visitors?.results ?? []) rowOf(key).visitors = count;
  for (const { key, count, rules = '' } of flagged?.results ?? [])
    addFlagged(rowOf(key), { key, count, rules } satisfies FlaggedCount, exclude);
  for (const { key, currency = '', events = 0, amount = 0, refunds = 0 } of revenue?.results ?? [])
    addRevenue(rowOf(key), currency, { events, amount, refunds });
  for (const row of rows.values()) {
    row.countedInstalls = countedInstalls(row);
    row.rates = ratesOf(row);
  }
  const sorted = [...rows.values()];
  if (query.by === 'day') sorted.sort((a, b) => (a.key < b.key ? -1 : 1));
  else
    sorted.sort((a, b) => b.views - a.views || b.installs - a.installs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { ...query, rows: sorted };
}
