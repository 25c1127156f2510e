/**
 * `npm run stats -- [--since 7d | --from DAY --to DAY] [--by channel] [--channel X] [--inviter X] [--link SLUG]
 * [--csv] [--local | --env development|production] [--base URL] [--app ID]` prints the funnel's figures
 * (docs/operators.md) as a table, or the API's CSV with `--csv`. It calls `GET /api/stats` of a
 * running worker: the local dev server of `npm start` by default (or with `--local`), else the
 * environment's URL from `--base` or `LANDER_URL`, with the `ADMIN_TOKEN` variable as the token (the
 * development default where there is one). Flags are checked against the API's bounds
 * (shared/day-range.ts) before any call; a bad flag or a refused call prints one line, exit 2.
 */
import { STATS_GROUPINGS } from '../shared/admin-contract.ts';
import { dayRefusal, rangeRefusal } from '../shared/day-range.ts';
import type { StatsResult } from '../worker/funnel/stats-query.ts';
import { adminTarget, callAdmin, errorOf } from './lib/admin-api.ts';
import { type CliHelp, cliArgs, helpIfAsked, refuse } from './lib/cli-args.ts';
import { sinceDay, statsTable } from './lib/stats-table.ts';

const USAGE =
  'usage: npm run stats -- [--since 7d | --from YYYY-MM-DD --to YYYY-MM-DD] [--by channel] [--channel X] ' +
  '[--inviter X] [--link SLUG] [--csv] [--local | --env development|production] [--base URL] [--app ID]';

const HELP: CliHelp = {
  summary: "Prints the funnel's figures of a running worker (GET /api/stats) as a table, or CSV.",
  usage: USAGE,
  flags: [
    ['--since Nd', 'the N days ending today, both included (7d: today and the 6 days before)'],
    ['--from DAY --to DAY', 'a range of days, YYYY-MM-DD, both included (at most 366 days)'],
    ['--by GROUP', `rows by ${STATS_GROUPINGS.join(', ')} (default day)`],
    ['--channel X, --inviter X, --link SLUG', 'only those visits'],
    ['--csv', "the API's CSV instead of a table"],
    ['--local', 'the dev server of npm start (http://localhost:$PORT, the default without LANDER_URL)'],
    ['--env development|production', 'the worker at LANDER_URL, with ADMIN_TOKEN'],
    ['--base URL', 'the worker at URL'],
    ['--app ID', 'the app ID of the deployment (docs/routes.md#apps): its API under /@ID/api on the shared host'],
  ],
  example: 'npm run stats -- --since 7d --by channel',
};

const OPTIONS = {
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
  app: { type: 'string' },
} as const;

/** The flags that shape the query, as `parseArgs` reads them. */
export interface StatsFlags {
  since?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  by?: string | undefined;
  channel?: string | undefined;
  inviter?: string | undefined;
  link?: string | undefined;
}

/**
 * The `/api/stats` query of `flags` at `now` (ms), or the one line saying what to change: the
 * API's own bounds (a day from 2000-01-01 to tomorrow, at most 366 days, shared/day-range.ts), so a
 * range it would refuse is never sent.
 */
export function statsQuery(flags: StatsFlags, now = Date.now()): URLSearchParams | { error: string } {
  const by = flags.by ?? 'day';
  if (!(STATS_GROUPINGS as readonly string[]).includes(by)) {
    return { error: `--by: one of ${STATS_GROUPINGS.join(', ')}; got ${by}` };
  }
  const query = new URLSearchParams({ by });
  for (const name of ['from', 'to'] as const) {
    const day = flags[name];
    const refused = day === undefined ? undefined : dayRefusal(`--${name}`, day, now);
    if (refused) return { error: refused };
  }
  const to = flags.to ?? new Date(now).toISOString().slice(0, 10);
  if (flags.to !== undefined) query.set('to', to);
  if (flags.since !== undefined) {
    if (flags.from !== undefined) return { error: '--since and --from exclude each other: give one' };
    const from = sinceDay(flags.since, to);
    if (!from) return { error: `--since: a number of days from 1 to 366, e.g. 7d; got ${flags.since}` };
    query.set('from', from);
    query.set('to', to);
  }
  if (flags.from !== undefined) query.set('from', flags.from);
  const from = query.get('from');
  if (from !== null) {
    const refused = rangeRefusal({ from, to }, now);
    if (refused) return { error: `--${refused}` };
  }
  for (const name of ['channel', 'inviter', 'link'] as const) {
    const value = flags[name];
    if (value === undefined) continue;
    if (value.length > 128) return { error: `--${name}: at most 128 characters` };
    query.set(name, value);
  }
  return query;
}

async function main(): Promise<void> {
  helpIfAsked('stats', HELP);
  const { values } = cliArgs('stats', USAGE, OPTIONS);
  const found = adminTarget(values, process.env);
  if (!found.ok) refuse('stats', found.reason);
  const query = statsQuery(values);
  if ('error' in query) refuse('stats', query.error);
  try {
    const res = await callAdmin(found.target, `/api/stats?${query}`, {
      headers: { accept: values.csv ? 'text/csv' : 'application/json' },
    });
    if (!res.ok) refuse('stats', await errorOf(res));
    if (values.csv) process.stdout.write(await res.text());
    else {
      // The API's own answer type: the worker and this script are one repository.
      const result = (await res.json()) as StatsResult;
      console.log(`${result.from} … ${result.to}, by ${result.by}`);
      console.log(statsTable(result.by, result.rows));
    }
  } catch (error) {
    refuse('stats', error instanceof Error ? error.message : String(error));
  }
}

if (import.meta.main) await main();
