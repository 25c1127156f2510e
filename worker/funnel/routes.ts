/**
 * `GET /api/stats` (docs/operators.md): the funnel's figures for a date range, grouped by one
 * dimension, as JSON, or as CSV when the request accepts `text/csv`. Admin only.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { readStatsCompared } from './previous-period.ts';
import { withReported } from './revenue.ts';
import { statsCsv } from './stats-csv.ts';
import { parseStatsQuery } from './stats-query.ts';

export const statsRoute = new Hono<AppEnv>();

statsRoute.use(operatorAuth('stats:read'));

statsRoute.get('/', async (c) => {
  // Days are the operator's (docs/operators.md#days-and-time-zones): "today" is today in that zone;
  // `fraud.exclude` says which flagged installs leave the counted figures (docs/fraud.md).
  const timeZone = c.get('config').config.funnel.time_zone;
  const query = parseStatsQuery(c.req.query(), Date.now(), timeZone);
  if ('error' in query) return c.json({ error: query.error }, 400);
  let result: Awaited<ReturnType<typeof readStatsCompared>>;
  try {
    result = await readStatsCompared(c.env.FUNNEL_DB, c.get('app'), query, c.get('config').config.fraud.exclude);
  } catch (error) {
    console.error('Stats not read', error instanceof Error ? error.message : String(error));
    return c.json({ error: 'The stats store is unavailable; try again' }, 503);
  }
  if (/\btext\/csv\b/i.test(c.req.header('accept') ?? '')) {
    const name = `lander-${query.by.replace(':', '-')}-${query.from}-${query.to}.csv`;
    c.header('Content-Disposition', `attachment; filename="${name}"`);
    return c.body(statsCsv(result.rows), 200, { 'Content-Type': 'text/csv; charset=utf-8' });
  }
  // Revenue also in the operator's reporting currency, at the operator's rates (docs/operators.md#revenue).
  const rates = c.get('config').config.revenue;
  const previous = result.previous && {
    ...result.previous,
    totals: withReported([result.previous.totals], rates)[0] ?? result.previous.totals,
  };
  return c.json({ ...result, rows: withReported(result.rows, rates), ...(previous ? { previous } : {}), timeZone });
});
