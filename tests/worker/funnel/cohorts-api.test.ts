/**
 * `/api/cohorts` and the cohort rollups (docs/operators.md#cohorts): refusals naming the field, the
 * CSV, an install's day counted once, late events on their own day, events before their install,
 * and two batches racing on one install.
 */
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { CohortsAnswer } from '../../../shared/cohorts.ts';
import { addDays } from '../../../shared/day-range.ts';
import { utcDay } from '../../../shared/time-zone.ts';
import { cohortWrites, foldBatch } from '../../../worker/funnel/cohorts.ts';
import { writeRollup } from '../../../worker/funnel/consume-batch.ts';
import type { FunnelMessage } from '../../../worker/funnel/events.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { freshChannel, funnelMessage } from '../funnel-fixtures.ts';

const ADMIN = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };
const get = (query: string, headers: Record<string, string> = {}) =>
  exports.default.fetch(new Request(`https://lander.test/api/cohorts?${query}`, { headers: { ...ADMIN, ...headers } }));

const today = utcDay(Date.now());
const installDay = addDays(today, -10);

const install = (key: string, channel: string, day = installDay): FunnelMessage =>
  funnelMessage({ type: 'install', method: 'referrer' }, { channel, variant: 'b' }, { id: `install:${key}`, day });
const activity = (key: string, day: string, money: { currency?: string; amount?: number } = {}): FunnelMessage => ({
  ...funnelMessage(
    money.currency ? { type: 'event', name: 'purchase', ...money } : { type: 'open', method: 'clipboard' },
    {},
    { day },
  ),
  install: key,
  app: 'com.pebble.notes',
});

async function rowOf(channel: string, ages = 30): Promise<CohortsAnswer['rows'][number] | undefined> {
  const res = await get(`by=channel&channel=${channel}&from=${addDays(today, -30)}&to=${today}&ages=${ages}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as CohortsAnswer).rows[0];
}

describe('/api/cohorts', () => {
  it.each([
    ['by=os', 'by: one of day, channel, inviter, link, variant, method'],
    ['ages=91', 'ages: a whole number from 0 to 90'],
    ['ages=-1', 'ages: a whole number from 0 to 90'],
    ['from=2026-02-30', 'from: must be a date, YYYY-MM-DD'],
    [`from=${today}&to=${addDays(today, -1)}`, 'from: must not be after to'],
  ])('refuses %s, naming the field', async (query, error) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error });
  });

  it('refuses a caller without stats:read', async () => {
    const res = await exports.default.fetch(new Request('https://lander.test/api/cohorts'));
    expect(res.status).toBe(401);
  });

  it('counts an install once a day whatever its events, its late events on their own day, its value day by day', async () => {
    const channel = freshChannel();
    const key = `k-${channel}`;
    await writeRollup(env.FUNNEL_DB, [
      install(key, channel),
      activity(key, installDay),
      activity(key, installDay, { currency: 'USD', amount: 999 }),
      activity(key, addDays(installDay, 1), { currency: 'USD', amount: 500 }),
    ]);
    // Late: sent today, dated day 3 (an app offline for days); and a refund on day 7.
    await writeRollup(env.FUNNEL_DB, [
      activity(key, addDays(installDay, 3)),
      activity(key, addDays(installDay, 3)),
      activity(key, addDays(installDay, 7), { currency: 'USD', amount: -200 }),
    ]);
    const row = await rowOf(channel, 12);
    expect(row?.installs).toBe(1);
    expect(row?.retained).toEqual([1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, null, null]);
    expect(row?.value.USD).toEqual([999, 1499, 1499, 1499, 1499, 1499, 1499, 1299, 1299, 1299, 1299, null, null]);
    const byVariant = (await (
      await get(`by=variant&channel=${channel}&from=${installDay}&to=${installDay}`)
    ).json()) as CohortsAnswer;
    expect(byVariant.rows.map((r) => [r.key, r.installs])).toEqual([['b', 1]]);
  });

  it('keeps events that come before their install and counts them when it does', async () => {
    const channel = freshChannel();
    const key = `k-${channel}`;
    await writeRollup(env.FUNNEL_DB, [activity(key, installDay, { currency: 'JPY', amount: 300 })]);
    expect(await rowOf(channel)).toBeUndefined();
    await writeRollup(env.FUNNEL_DB, [install(key, channel)]);
    const row = await rowOf(channel, 2);
    expect(row).toMatchObject({ installs: 1, retained: [1, 0, 0], value: { JPY: [300, 300, 300] } });
  });

  it('refuses the second of two batches racing on one install (its transaction fails, to be retried)', async () => {
    const channel = freshChannel();
    const key = `k-${channel}`;
    await writeRollup(env.FUNNEL_DB, [install(key, channel)]);
    const stale = await env.FUNNEL_DB.prepare('SELECT * FROM cohort_installs WHERE app = ?1 AND install = ?2')
      .bind('default', key)
      .all();
    await writeRollup(env.FUNNEL_DB, [activity(key, installDay)]);
    const late = foldBatch([activity(key, addDays(installDay, 1))], stale.results, Date.now());
    await expect(env.FUNNEL_DB.batch(cohortWrites(env.FUNNEL_DB, 'default', late, Date.now()))).rejects.toThrow(
      /CHECK/,
    );
    expect((await rowOf(channel, 1))?.retained).toEqual([1, 0]);
  });

  it('answers CSV with a column per day and per currency', async () => {
    const channel = freshChannel();
    const key = `k-${channel}`;
    await writeRollup(env.FUNNEL_DB, [
      install(key, channel),
      activity(key, installDay, { currency: 'EUR', amount: 250 }),
    ]);
    const res = await get(`by=channel&channel=${channel}&from=${installDay}&to=${installDay}&ages=2`, {
      accept: 'text/csv',
    });
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain(`lander-cohorts-channel-${installDay}-${installDay}.csv`);
    expect(await res.text()).toBe(
      'day,key,installs,retained:0,retained:1,retained:2,value:EUR:0,value:EUR:1,value:EUR:2\r\n' +
        `${installDay},${channel},1,1,0,0,250,250,250\r\n`,
    );
  });
});
