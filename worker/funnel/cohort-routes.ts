/**
 * `GET /api/cohorts` (docs/operators.md#cohorts): cohort tables — installs by install day and one
 * grouping, their retention day by day and cumulative value per currency — as JSON, or as CSV when
 * the request accepts `text/csv`. The range and filters are `/api/stats`' own; `stats:read`.
 */
import { Hono } from 'hono';
import type { CohortsAnswer } from '../../shared/cohorts.ts';
import { dayIn } from '../../shared/time-zone.ts';
import type { AppEnv } from '../env.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { cohortsCsv, parseCohortQuery, readCohorts } from './cohort-query.ts';
import { csvCell } from './stats-csv.ts';

export const cohortsRoute = new Hono<AppEnv>();

cohortsRoute.use(operatorAuth('stats:read'));

cohortsRoute.get('/', async (c) => {
  // The operator's days (docs/operators.md#days-and-time-zones), as /api/stats reads them.
  const timeZone = c.get('config').config.funnel.time_zone;
  const now = Date.now();
  const query = parseCohortQuery(c.req.query(), now, timeZone);
  if ('error' in query) return c.json({ error: query.error }, 400);
  const today = dayIn(timeZone, now);
  let rows: CohortsAnswer['rows'];
  try {
    ({ rows } = await readCohorts(c.env.FUNNEL_DB, c.get('app'), query, today));
  } catch (error) {
    console.error('Cohorts not read', error instanceof Error ? error.message : String(error));
    return c.json({ error: 'The stats store is unavailable; try again' }, 503);
  }
  if (/\btext\/csv\b/i.test(c.req.header('accept') ?? '')) {
    c.header('Content-Disposition', `attachment; filename="lander-cohorts-${query.by}-${query.from}-${query.to}.csv"`);
    return c.body(cohortsCsv(rows, query.ages, csvCell), 200, { 'Content-Type': 'text/csv; charset=utf-8' });
  }
  const answer: CohortsAnswer = { ...query, timeZone, today, rows };
  return c.json(answer);
});
