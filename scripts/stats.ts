/**
 * `npm run stats -- [--since 7d | --from DAY --to DAY] [--by channel] [--channel X] [--inviter X] [--link SLUG]
 * [--csv] [--local | --env development|production] [--base URL]` prints the funnel's figures
 * (docs/operators.md) as a table, or the API's CSV with `--csv`. It calls `GET /api/stats` of a
 * running worker: the local dev server of `npm start` by default (or with `--local`), else the
 * environment's URL from `--base` or `LANDER_URL`, with the `ADMIN_TOKEN` variable as the token (the
 * development default where there is one). A refused call prints the API's message, exit 2.
 */
import { parseArgs } from 'node:util';
import type { StatsResult } from '../worker/funnel/stats-query.ts';
import { adminTarget, callAdmin, errorOf } from './lib/admin-api.ts';
import { sinceDay, statsTable } from './lib/stats-table.ts';

const { values } = parseArgs({
  options: {
    since: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    by: { type: 'string', default: 'day' },
    channel: { type: 'string' },
    inviter: { type: 'string' },
    link: { type: 'string' },
    csv: { type: 'boolean', default: false },
    local: { type: 'boolean', default: false },
    env: { type: 'string' },
    base: { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(`npm run stats: ${message}`);
  process.exit(2);
}

const found = adminTarget(values, process.env);
if (!found.ok) fail(found.reason);

const query = new URLSearchParams({ by: values.by });
const to = values.to ?? new Date().toISOString().slice(0, 10);
if (values.to !== undefined) query.set('to', values.to);
if (values.since !== undefined) {
  if (values.from !== undefined) fail('--since and --from exclude each other');
  query.set('from', sinceDay(values.since, to) ?? fail(`--since takes a number of days, e.g. 7d; got ${values.since}`));
  query.set('to', to);
}
if (values.from !== undefined) query.set('from', values.from);
if (values.channel !== undefined) query.set('channel', values.channel);
if (values.inviter !== undefined) query.set('inviter', values.inviter);
if (values.link !== undefined) query.set('link', values.link);

try {
  const res = await callAdmin(found.target, `/api/stats?${query}`, {
    headers: { accept: values.csv ? 'text/csv' : 'application/json' },
  });
  if (!res.ok) fail(await errorOf(res));
  if (values.csv) process.stdout.write(await res.text());
  else {
    // The API's own answer type: the worker and this script are one repository.
    const result = (await res.json()) as StatsResult;
    console.log(`${result.from} … ${result.to}, by ${result.by}`);
    console.log(statsTable(result.by, result.rows));
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
