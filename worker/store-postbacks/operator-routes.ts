/**
 * `GET /api/store-postbacks?since=` (docs/store-postbacks.md#the-admin-api), admin only: the counted
 * postbacks' aggregates per day since a day (`YYYY-MM-DD`) or for the last `N` days (`7d`, the default).
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { MAX_RANGE_DAYS } from '../../shared/day-range.ts';
import { DAY_MS, utcDay } from '../../shared/time-zone.ts';
import type { AppEnv } from '../env.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { StorePostbacksQuerySchema } from './contract.ts';
import { readPostbacks } from './storage.ts';

/** The longest span one answer covers, in days: the stats' (shared/day-range.ts). */
export const MAX_DAYS = MAX_RANGE_DAYS;

/** The first day `since` names (`7d`, `2026-11-01`), or why it is refused. `now` (ms) is today. */
export function sinceDay(since: string | undefined, now = Date.now()): string | { error: string } {
  const text = since ?? '7d';
  const days = /^(\d{1,3})d$/.exec(text);
  if (days) {
    const count = Number(days[1]);
    if (count < 1 || count > MAX_DAYS) return { error: `since: at most ${MAX_DAYS} days, at least 1` };
    return utcDay(now - (count - 1) * DAY_MS);
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || utcDay(Date.parse(text) || 0) !== text) {
    return { error: 'since: must be a day, YYYY-MM-DD, or a number of days, 7d' };
  }
  if (now - Date.parse(text) >= MAX_DAYS * DAY_MS) return { error: `since: at most ${MAX_DAYS} days ago` };
  return text;
}

export const storePostbacksRoute = new Hono<AppEnv>();
storePostbacksRoute.use(operatorAuth('store-postbacks:read'));

storePostbacksRoute.get('/', async (c) => {
  const query = v.safeParse(StorePostbacksQuerySchema, c.req.query());
  if (!query.success) return c.json({ error: query.issues[0]?.message ?? 'since: unreadable' }, 400);
  const since = sinceDay(query.output.since);
  if (typeof since !== 'string') return c.json(since, 400);
  try {
    return c.json(await readPostbacks(c.env.FUNNEL_DB, c.get('app'), since));
  } catch (error) {
    console.error('Store postbacks not read', error instanceof Error ? error.message : String(error));
    return c.json({ error: 'The postback store is unavailable; try again' }, 503);
  }
});
