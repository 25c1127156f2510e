/**
 * `GET /api/fraud` (docs/fraud.md), admin only: the fraud report of a date range, per inviter and
 * channel, with the anomalies and the flagged installs' reasons (the console's Fraud panel).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { parseFraudQuery, readFraudReport } from './report.ts';

export const fraudRoute = new Hono<AppEnv>();

fraudRoute.use(operatorAuth('fraud:read'));

fraudRoute.get('/', async (c) => {
  const query = parseFraudQuery(c.req.query());
  if ('error' in query) return c.json({ error: query.error }, 400);
  try {
    return c.json(await readFraudReport(c.env.FUNNEL_DB, c.get('app'), query, c.get('config').config.fraud));
  } catch (error) {
    console.error('Fraud report not read', error instanceof Error ? error.message : String(error));
    return c.json({ error: 'The stats store is unavailable; try again' }, 503);
  }
});
