/**
 * `GET /api/cohorts`' query (docs/operators.md#cohorts): the range and filters of `/api/stats`, one
 * grouping beside the install day, and how many days after the install to show; read from the cohort
 * rollups (cohort_daily) into one row per install day and group.
 */
import * as v from 'valibot';
import {
  COHORT_GROUPINGS,
  type CohortGrouping,
  type CohortRow,
  type CohortsAnswer,
  DEFAULT_COHORT_AGES,
  MAX_COHORT_AGES,
} from '../../shared/cohorts.ts';
import { addDays, dayRefusal, daysIn, FIRST_DAY, isDay, rangeRefusal } from '../../shared/day-range.ts';
import { DEFAULT_TIME_ZONE, dayIn } from '../../shared/time-zone.ts';
import { DEFAULT_DAYS } from './stats-query.ts';

export interface CohortQuery {
  from: string;
  to: string;
  by: CohortGrouping;
  ages: number;
  channel?: string;
  inviter?: string;
  link?: string;
}

const COLUMN = {
  day: "''",
  channel: 'channel',
  inviter: 'inviter',
  link: 'link',
  variant: 'variant',
  method: 'method',
} as const satisfies Record<CohortGrouping, string>;

const Day = (field: string) => v.optional(v.pipe(v.string(), v.check(isDay, `${field}: must be a date, YYYY-MM-DD`)));
const Filter = (field: string) => v.optional(v.pipe(v.string(), v.maxLength(128, `${field}: at most 128 characters`)));
const AGES_RULE = `ages: a whole number from 0 to ${MAX_COHORT_AGES}`;

/** `GET /api/cohorts`' query (the OpenAPI document describes it from here); each refusal `<field>: <reason>`. */
export const CohortQuerySchema = v.object({
  from: Day('from'),
  to: Day('to'),
  by: v.optional(v.picklist(COHORT_GROUPINGS, `by: one of ${COHORT_GROUPINGS.join(', ')}`), 'day'),
  ages: v.optional(v.pipe(v.string(), v.regex(/^([0-9]|[1-8][0-9]|90)$/, AGES_RULE)), String(DEFAULT_COHORT_AGES)),
  channel: Filter('channel'),
  inviter: Filter('inviter'),
  link: Filter('link'),
});

/** The query of `params`, or why it is refused; a missing `to` is today in `zone` (as /api/stats). */
export function parseCohortQuery(
  params: Record<string, string>,
  now = Date.now(),
  zone = DEFAULT_TIME_ZONE,
): CohortQuery | { error: string } {
  const parsed = v.safeParse(CohortQuerySchema, params);
  if (!parsed.success) return { error: parsed.issues.map((issue) => issue.message).join('; ') };
  const { from: given, to = dayIn(zone, now), by, ages, channel, inviter, link } = parsed.output;
  const toRefused = dayRefusal('to', to, now);
  if (toRefused) return { error: toRefused };
  const from = given ?? addDays(to, 1 - Math.min(DEFAULT_DAYS, daysIn(FIRST_DAY, to)));
  const refused = rangeRefusal({ from, to }, now);
  if (refused) return { error: refused };
  const filters = Object.entries({ channel, inviter, link }).filter(([, value]) => value !== undefined);
  return { from, to, by, ages: Number(ages), ...Object.fromEntries(filters) };
}

/** One cohort's one metric as the query answers it: its days after the install as `age:n,age:n,…`. */
export interface PackedCells {
  day: string;
  key: string;
  metric: string;
  cells: string;
}

function sqlOf(app: string, query: CohortQuery): { sql: string; params: (string | number)[] } {
  const column = COLUMN[query.by];
  const params: (string | number)[] = [app, query.from, query.to, query.ages];
  const clauses = ['app = ?1', 'day BETWEEN ?2 AND ?3', 'age <= ?4'];
  for (const name of ['channel', 'inviter', 'link'] as const) {
    const value = query[name];
    if (value === undefined) continue;
    params.push(value);
    clauses.push(`${name} = ?${params.length}`);
  }
  // One row per cohort and metric, its days packed `age:n,…` (a day may come more than once, one per
  // row of the grouping's other columns, and is added up here): a year of daily cohorts is thousands
  // of rows, not hundreds of thousands (the bench's Cohorts row).
  const sql =
    `SELECT day, ${column} AS key, metric, group_concat(age || ':' || n) AS cells FROM cohort_daily ` +
    `WHERE ${clauses.join(' AND ')} GROUP BY day, ${column}, metric`;
  return { sql, params };
}

/** The days of `row` still to come on `today` made null; each currency's value added up day by day. */
function finished(row: CohortRow, perDay: Record<string, number[]>, ages: number, today: string): CohortRow {
  const reached = Math.min(ages, daysIn(row.day, today) - 1);
  const open = <T>(values: T[]): (T | null)[] => values.map((value, age) => (age <= reached ? value : null));
  let value: Record<string, (number | null)[]> = {};
  for (const [currency, amounts] of Object.entries(perDay)) {
    let sum = 0;
    value[currency] = open(amounts.map((amount) => (sum += amount)));
  }
  value = Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { ...row, retained: open(row.retained), value };
}

/** Reads `query` from app `app`'s cohort rollups; `today` is the operator's. */
export async function readCohorts(
  db: D1Database,
  app: string,
  query: CohortQuery,
  today: string,
): Promise<Pick<CohortsAnswer, 'rows'>> {
  const { sql, params } = sqlOf(app, query);
  const { results } = await db
    .prepare(sql)
    .bind(...params)
    .all<PackedCells>();
  const rows = new Map<string, { row: CohortRow; perDay: Record<string, number[]> }>();
  const zeros = (): number[] => new Array<number>(query.ages + 1).fill(0);
  for (const { day, key, metric, cells } of results) {
    const id = JSON.stringify([day, key]);
    const entry = rows.get(id) ?? { row: { day, key, installs: 0, retained: zeros(), value: {} }, perDay: {} };
    rows.set(id, entry);
    const currency = metric.startsWith('value:') ? metric.slice(6) : null;
    const perDay = currency === null ? null : (entry.perDay[currency] ?? zeros());
    if (currency !== null && perDay) entry.perDay[currency] = perDay;
    const target: (number | null)[] | null = metric === 'retained' ? entry.row.retained : perDay;
    for (const cell of cells.split(',')) {
      const at = cell.indexOf(':');
      const age = Number(cell.slice(0, at));
      const n = Number(cell.slice(at + 1));
      if (metric === 'installs') entry.row.installs += n;
      else if (target) target[age] = (target[age] ?? 0) + n;
    }
  }
  const done = [...rows.values()].map(({ row, perDay }) => finished(row, perDay, query.ages, today));
  done.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : b.installs - a.installs || (a.key < b.key ? -1 : 1)));
  return { rows: done };
}

/** A row's value in `currency` up to day `age`: 0 for a currency it has none of, empty for a day to come. */
const valueCell = (row: CohortRow, currency: string, age: number): number | string =>
  row.retained[age] === null ? '' : (row.value[currency]?.[age] ?? 0);

/** The CSV columns of a cohort table: the day, the group, installs, each day's retained, each currency's value. */
export function cohortsCsv(rows: readonly CohortRow[], ages: number, cell: (value: string | number) => string): string {
  const currencies = [...new Set(rows.flatMap((row) => Object.keys(row.value)))].sort();
  const days = Array.from({ length: ages + 1 }, (_, age) => age);
  const header = [
    'day',
    'key',
    'installs',
    ...days.map((age) => `retained:${age}`),
    ...currencies.flatMap((currency) => days.map((age) => `value:${currency}:${age}`)),
  ];
  const lines = rows.map((row) =>
    [
      row.day,
      row.key,
      row.installs,
      ...row.retained.map((n) => n ?? ''),
      ...currencies.flatMap((currency) => days.map((age) => valueCell(row, currency, age))),
    ].map((value) => cell(value)),
  );
  return `${[header.map((value) => cell(value)), ...lines].map((line) => line.join(',')).join('\r\n')}\r\n`;
}
