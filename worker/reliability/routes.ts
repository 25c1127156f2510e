/**
 * `GET /api/losses` (docs/reliability.md): what faults made the worker give up on in the last 7 days
 * (losses.ts), for an operator. Admin only; 503 when the store itself is down.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { readLosses } from './losses.ts';

const DAYS = 7;

export const lossesRoute = new Hono<AppEnv>();

lossesRoute.use(operatorAuth('losses:read'));

lossesRoute.get('/', async (c) => {
  c.header('cache-control', 'no-store');
  try {
    return c.json({ days: DAYS, lost: await readLosses(c.env, DAYS) });
  } catch (error) {
    console.error('Losses not read', error instanceof Error ? error.message : String(error));
    return c.json({ error: 'The loss counter is unavailable; try again' }, 503);
  }
});
