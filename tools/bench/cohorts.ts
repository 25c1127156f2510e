/**
 * Cohorts' read (docs/operators.md#cohorts, docs/benchmarks.md): `/api/cohorts`' query and assembly
 * (`readCohorts`, the route's read) over a year of daily cohorts of eight channels, each counted 30
 * days on (retained and value in USD per day), in D1 inside workerd (miniflare, as in production's
 * engine): 30 reads of the year by channel with `ages=30`, and their p95.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { ROOT } from '../../scripts/lib/run.ts';
import { addDays } from '../../shared/day-range.ts';
import { readCohorts } from '../../worker/funnel/cohort-query.ts';
import type { BenchRow, BenchSection } from './context.ts';
import { percentile } from './local-d1.ts';

const TODAY = '2026-11-29';
const DAYS = 365;
const CHANNELS = 8;
const AGES = 30;
const READS = 30;
/** The p95 the read is held to. */
const BUDGET_MS = 300;

/** The repository's migrations, statement by statement, comment lines left out. */
function migrationStatements(): string[] {
  const dir = join(ROOT, 'migrations');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .flatMap((file) =>
      readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .split(/;\s*\n/),
    )
    .map((statement) => statement.trim().replace(/;$/, ''))
    .filter((statement) => statement.length > 0);
}

/** A year of cohorts: per day and channel, installs, and retained and value for days 0–30. */
async function seed(db: D1Database): Promise<number> {
  const insert =
    'INSERT INTO cohort_daily (app, day, channel, inviter, link, variant, method, age, metric, n) ' +
    "SELECT 'default', json_extract(value, '$[0]'), json_extract(value, '$[1]'), '', '', '', 'referrer', " +
    "json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(?1)";
  let rows = 0;
  for (let back = 0; back < DAYS; back += 1) {
    const day = addDays(TODAY, -back);
    const cells: (string | number)[][] = [];
    for (let channel = 0; channel < CHANNELS; channel += 1) {
      const installs = 50 + channel * 10;
      cells.push([day, `channel-${channel}`, 0, 'installs', installs]);
      for (let age = 0; age <= Math.min(AGES, back); age += 1) {
        cells.push([day, `channel-${channel}`, age, 'retained', Math.round(installs / (1 + age))]);
        cells.push([day, `channel-${channel}`, age, 'value:USD', 99 * (channel + 1)]);
      }
    }
    await db.prepare(insert).bind(JSON.stringify(cells)).run();
    rows += cells.length;
  }
  return rows;
}

export const cohorts: BenchSection = {
  title: 'Cohorts (/api/cohorts read, D1)',
  async run(): Promise<BenchRow[]> {
    const mf = new Miniflare(
      convertV4MiniflareOptions({
        modules: true,
        script: 'export default { fetch: () => new Response("") }',
        d1Databases: ['FUNNEL_DB'],
      }),
    );
    try {
      const db = (await mf.getD1Database('FUNNEL_DB')) as unknown as D1Database;
      for (const statement of migrationStatements()) await db.prepare(statement).run();
      const rows = await seed(db);
      const query = { from: addDays(TODAY, 1 - DAYS), to: TODAY, by: 'channel' as const, ages: AGES };
      const times: number[] = [];
      let cohortRows = 0;
      for (let at = 0; at < READS; at += 1) {
        const started = performance.now();
        cohortRows = (await readCohorts(db, 'default', query, TODAY)).rows.length;
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      return [
        {
          name: `a year of daily cohorts × ${AGES} days, by channel (${cohortRows} cohorts, ${rows} rollup rows): p95 of ${READS} reads`,
          value: `${p95.toFixed(0)} ms (median ${percentile(times, 50).toFixed(0)} ms)`,
          budget: { limit: `≤ ${BUDGET_MS} ms`, ok: p95 <= BUDGET_MS },
        },
      ];
    } finally {
      await mf.dispose();
    }
  },
};
