/**
 * The cohorts' Parquet export (docs/webhooks.md#exports, docs/operators.md#cohorts) read back by
 * DuckDB (`@duckdb/node-api`, DuckDB's own Node client): cohorts counted by the funnel's consumer into a real D1
 * (miniflare's workerd), exported to a real R2 bucket by the daily export's code, the part read by
 * DuckDB and added up per install day, day after the install and metric, equal to what `/api/cohorts`
 * reads from the same D1 (`readCohorts`, the route's read), cumulative values included.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/run.ts';
import { addDays } from '../../shared/day-range.ts';
import { cohortPartKey, exportCohorts } from '../../worker/exports/cohort-export.ts';
import { readCohorts } from '../../worker/funnel/cohort-query.ts';
import { writeRollup } from '../../worker/funnel/consume-batch.ts';
import type { FunnelMessage } from '../../worker/funnel/events.ts';
import { NO_DIMENSIONS } from '../../worker/funnel/events.ts';

const DAY = '2026-11-20';
let mf: Miniflare;
let env: Env;

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

/** The rows of `sql` run by DuckDB (its Node client) over the Parquet files `files` (name → bytes). */
async function duckdb<T>(sql: string, files: Record<string, Uint8Array>): Promise<T[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lander-duckdb-'));
  try {
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    await connection.run(`SET file_search_path = '${dir}'`);
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as T[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const message = (event: FunnelMessage['event'], day: string, extra: Partial<FunnelMessage>): FunnelMessage => ({
  v: 1,
  id: crypto.randomUUID(),
  day,
  event,
  dims: { ...NO_DIMENSIONS },
  ...extra,
});

/** Installs of two channels over three days, with opens and purchases in two currencies. */
function traffic(): FunnelMessage[] {
  const out: FunnelMessage[] = [];
  for (let at = 0; at < 30; at += 1) {
    const day = addDays(DAY, -(at % 3) - 2);
    const key = `parquet-${at}`;
    const dims = { ...NO_DIMENSIONS, channel: at % 2 ? 'spring' : '', inviter: 'Ann' };
    out.push({ ...message({ type: 'install', method: 'referrer' }, day, {}), id: `install:${key}`, dims });
    for (let age = 0; age < at % 4; age += 1) {
      const money = age % 2 ? { currency: 'USD', amount: 199 * at } : { currency: 'JPY', amount: 120 };
      out.push(message({ type: 'event', name: 'buy', ...money }, addDays(day, age), { install: key }));
      out.push(message({ type: 'open', method: 'clipboard' }, addDays(day, age), { install: key }));
    }
  }
  return out;
}

beforeAll(async () => {
  mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: 'export default { fetch: () => new Response("") }',
      d1Databases: ['FUNNEL_DB'],
      r2Buckets: ['EXPORTS'],
    }),
  );
  const db = await mf.getD1Database('FUNNEL_DB');
  for (const statement of migrationStatements()) await db.prepare(statement).run();
  env = { FUNNEL_DB: db, EXPORTS: await mf.getR2Bucket('EXPORTS') } as unknown as Env;
  const messages = traffic();
  await writeRollup(env.FUNNEL_DB, messages, Date.parse(`${DAY}T12:00:00Z`));
}, 60_000);

afterAll(() => mf?.dispose());

describe('the cohorts as Parquet', () => {
  it('reads back in DuckDB as the API answers them', async () => {
    expect(await exportCohorts(env, 'default', DAY)).toBeGreaterThan(0);
    const object = await env.EXPORTS.get(cohortPartKey('default', DAY, 0));
    const bytes = new Uint8Array(await (object as R2ObjectBody).arrayBuffer());
    type Cell = { install_day: string; metric: string; age: number; n: number };
    const read = await duckdb<Cell>(
      "SELECT install_day, metric, age, CAST(SUM(n) AS DOUBLE) AS n FROM 'cohorts.parquet' GROUP BY ALL ORDER BY ALL",
      { 'cohorts.parquet': bytes },
    );
    const api = await readCohorts(
      env.FUNNEL_DB,
      'default',
      { from: addDays(DAY, -4), to: DAY, by: 'day', ages: 5 },
      DAY,
    );
    const fromApi: Cell[] = [];
    for (const row of api.rows) {
      fromApi.push({ install_day: row.day, metric: 'installs', age: 0, n: row.installs });
      row.retained.forEach((n, age) => {
        if (n) fromApi.push({ install_day: row.day, metric: 'retained', age, n });
      });
      for (const [currency, cumulative] of Object.entries(row.value)) {
        cumulative.forEach((sum, age) => {
          // A day still to come (null) has nothing counted yet.
          const n = sum === null ? 0 : sum - (age > 0 ? (cumulative[age - 1] ?? 0) : 0);
          if (n) fromApi.push({ install_day: row.day, metric: `value:${currency}`, age, n });
        });
      }
    }
    const order = (rows: Cell[]) =>
      [...rows].sort((a, b) =>
        `${a.install_day}${a.metric}${String(a.age).padStart(2)}`.localeCompare(
          `${b.install_day}${b.metric}${String(b.age).padStart(2)}`,
        ),
      );
    expect(order(read)).toEqual(order(fromApi));
    expect(read.length).toBeGreaterThan(10);
    const columns = await duckdb<{ column_name: string; column_type: string }>(
      "DESCRIBE SELECT * FROM 'cohorts.parquet'",
      {
        'cohorts.parquet': bytes,
      },
    );
    expect(columns.map((column) => [column.column_name, column.column_type])).toEqual([
      ['install_day', 'VARCHAR'],
      ['channel', 'VARCHAR'],
      ['inviter', 'VARCHAR'],
      ['link', 'VARCHAR'],
      ['variant', 'VARCHAR'],
      ['method', 'VARCHAR'],
      ['metric', 'VARCHAR'],
      ['age', 'INTEGER'],
      ['n', 'BIGINT'],
    ]);
  }, 60_000);
});
