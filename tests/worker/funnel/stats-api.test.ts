/**
 * `GET /api/stats` (docs/operators.md): grouping, filters, CSV, and a message for every refused query.
 * Each test writes its own rollups (under its own channel) through the consumer's writer.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { writeRollup } from '../../../worker/funnel/consume-batch.ts';
import type { StatsResult, StatsRow } from '../../../worker/funnel/stats-query.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { failingDb, freshChannel, funnelMessage } from '../funnel-fixtures.ts';
import { fetchWorker } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };

async function stats(query: string, headers: Record<string, string> = {}, bindings: Partial<Env> = {}) {
  return fetchWorker(
    `https://lander.test/api/stats?${query}`,
    { headers: { ...auth, ...headers } },
    { ...env, ...bindings },
  );
}

describe('GET /api/stats', () => {
  it('groups by the dimension asked for, under a filter', async () => {
    const channel = freshChannel();
    const seeded = [
      ['ann', 'spring', '2026-11-02'],
      ['ann', 'spring', '2026-11-03'],
      ['bob', 'spring', '2026-11-03'],
      ['cai', 'autumn', '2026-11-03'],
    ] as const;
    await writeRollup(
      env.FUNNEL_DB,
      seeded.map(([inviter, link, day]) =>
        funnelMessage({ type: 'view', page: 'landing' }, { channel, inviter, link }, { day }),
      ),
    );
    const res = await stats(`from=2026-11-01&to=2026-11-05&by=inviter&channel=${channel}&link=spring`);
    expect(res.status).toBe(200);
    const body = await res.json<{ from: string; to: string; by: string; rows: { key: string; views: number }[] }>();
    expect(body).toMatchObject({ from: '2026-11-01', to: '2026-11-05', by: 'inviter' });
    expect(body.rows.map(({ key, views }) => ({ key, views }))).toEqual([
      { key: 'ann', views: 2 },
      { key: 'bob', views: 1 },
    ]);
  });

  it('filters by inviter, for a drill-down of one inviter', async () => {
    const channel = freshChannel();
    await writeRollup(env.FUNNEL_DB, [
      funnelMessage({ type: 'view', page: 'landing' }, { channel, inviter: 'ann', os: 'ios' }, { day: '2026-10-02' }),
      funnelMessage(
        { type: 'view', page: 'landing' },
        { channel, inviter: 'ann', os: 'android' },
        { day: '2026-10-02' },
      ),
      funnelMessage({ type: 'view', page: 'landing' }, { channel, inviter: 'bob', os: 'ios' }, { day: '2026-10-02' }),
    ]);
    const res = await stats(`from=2026-10-01&to=2026-10-03&by=os&channel=${channel}&inviter=ann`);
    const body = await res.json<StatsResult>();
    expect(body.inviter).toBe('ann');
    expect(body.rows.map(({ key, views }) => ({ key, views }))).toEqual([
      { key: 'android', views: 1 },
      { key: 'ios', views: 1 },
    ]);
  });

  it('gives a daily series with every day of the range, quiet days as zeros', async () => {
    const channel = freshChannel();
    await writeRollup(env.FUNNEL_DB, [
      funnelMessage({ type: 'tap', action: 'open' }, { channel }, { day: '2026-09-02' }),
    ]);
    const res = await stats(`from=2026-09-01&to=2026-09-03&by=day&channel=${channel}`);
    const body = await res.json<{ rows: { key: string; taps: number }[] }>();
    expect(body.rows.map(({ key, taps }) => ({ key, taps }))).toEqual([
      { key: '2026-09-01', taps: 0 },
      { key: '2026-09-02', taps: 1 },
      { key: '2026-09-03', taps: 0 },
    ]);
  });

  it('covers the last 7 days by day when asked nothing', async () => {
    const body = await (await stats('')).json<{ by: string; rows: unknown[] }>();
    expect(body.by).toBe('day');
    expect(body.rows).toHaveLength(7);
  });

  it('gives the same rows as CSV when the client accepts text/csv, formula-like keys defused', async () => {
    const channel = freshChannel();
    await writeRollup(env.FUNNEL_DB, [
      funnelMessage({ type: 'view', page: 'landing' }, { channel, inviter: '=HYPERLINK("x")' }, { day: '2026-08-01' }),
      funnelMessage(
        { type: 'event', name: 'register' },
        { channel, inviter: '=HYPERLINK("x")' },
        { day: '2026-08-01' },
      ),
    ]);
    const res = await stats(`from=2026-08-01&to=2026-08-01&by=inviter&channel=${channel}`, { accept: 'text/csv' });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="lander-inviter-2026-08-01-2026-08-01.csv"',
    );
    const [header, row] = (await res.text()).trimEnd().split('\r\n');
    expect(header?.startsWith('key,views,visitors,taps,tap:download,')).toBe(true);
    expect(header?.endsWith(',opens,event:register,rate:event:register')).toBe(true);
    expect(row?.startsWith(`"'=HYPERLINK(""x"")",1,0,0,`)).toBe(true);
    // No installs: the event's rate over installs is a share of nothing, an empty cell.
    expect(row?.endsWith(',0,1,')).toBe(true);
  });

  it('keeps attributed and organic installs apart, by method and by reason, with the rates', async () => {
    const channel = freshChannel();
    const on = { day: '2026-07-10' };
    const repeat = <T>(times: number, make: () => T): T[] => Array.from({ length: times }, make);
    await writeRollup(env.FUNNEL_DB, [
      ...repeat(8, () => funnelMessage({ type: 'view', page: 'landing' }, { channel }, on)),
      ...repeat(4, () => funnelMessage({ type: 'tap', action: 'store' }, { channel }, on)),
      funnelMessage({ type: 'install', method: 'clipboard' }, { channel }, on),
      funnelMessage({ type: 'install', method: 'probabilistic' }, { channel }, on),
      ...repeat(2, () => funnelMessage({ type: 'install', unmatched: 'none' }, { channel }, on)),
      funnelMessage({ type: 'install', unmatched: 'expired' }, { channel }, on),
      ...repeat(2, () => funnelMessage({ type: 'event', name: 'register' }, { channel }, on)),
    ]);
    const res = await stats(`from=2026-07-10&to=2026-07-10&by=channel&channel=${channel}`);
    const [row] = (await res.json<{ rows: StatsRow[] }>()).rows;
    expect(row).toMatchObject({
      installs: 5,
      attributed: 2,
      organic: 3,
      byMethod: { clipboard: 1, probabilistic: 1, 'unmatched:none': 2, 'unmatched:expired': 1 },
      byUnmatched: { none: 2, expired: 1 },
      rates: { tap: 0.5, install: 0.5, events: { register: 0.4 } },
    });
    const csv = await (
      await stats(`from=2026-07-10&to=2026-07-10&by=channel&channel=${channel}`, { accept: 'text/csv' })
    ).text();
    const [header = '', line = ''] = csv.trimEnd().split('\r\n');
    const cells = Object.fromEntries(header.split(',').map((name, at) => [name, line.split(',')[at]]));
    expect(cells).toMatchObject({
      'rate:tap': '0.5',
      installs: '5',
      'installs:attributed': '2',
      'installs:organic': '3',
      'rate:install': '0.5',
      'install:unmatched:expired': '1',
      'rate:event:register': '0.4',
    });
  });

  it('adds up the previous period of the same length when asked to compare', async () => {
    const channel = freshChannel();
    const view = { type: 'view', page: 'landing' } as const;
    await writeRollup(env.FUNNEL_DB, [
      // 2026-06-08…10 is the range; 06-05…07 the previous one; 06-04 is before both.
      funnelMessage(view, { channel }, { day: '2026-06-04' }),
      funnelMessage(view, { channel }, { day: '2026-06-05' }),
      funnelMessage(view, { channel }, { day: '2026-06-07' }),
      funnelMessage({ type: 'tap', action: 'store' }, { channel }, { day: '2026-06-07' }),
      funnelMessage({ type: 'install', method: 'referrer' }, { channel }, { day: '2026-06-07' }),
      funnelMessage({ type: 'install', unmatched: 'ambiguous' }, { channel }, { day: '2026-06-06' }),
      funnelMessage(view, { channel }, { day: '2026-06-08' }),
    ]);
    const query = `from=2026-06-08&to=2026-06-10&by=channel&channel=${channel}`;
    const body = await (await stats(`${query}&compare=previous`)).json<StatsResult>();
    expect(body.rows.map(({ key, views }) => ({ key, views }))).toEqual([{ key: channel, views: 1 }]);
    expect(body.previous).toMatchObject({
      from: '2026-06-05',
      to: '2026-06-07',
      totals: { views: 2, taps: 1, installs: 2, attributed: 1, organic: 1, rates: { tap: 0.5, install: 1 } },
    });
    expect((await (await stats(query)).json<StatsResult>()).previous).toBeUndefined();
    expect((await stats(`${query}&compare=last-year`)).status).toBe(400);
  });

  it.each([
    ['from=2026-13-01', 'from: must be a date'],
    ['from=2026-02-30', 'from: must be a date'],
    ['to=tomorrow', 'to: must be a date'],
    ['from=2026-03-02&to=2026-03-01', 'from: must not be after to'],
    ['from=2024-01-01&to=2026-01-01', 'from: at most 366 days'],
    ['from=1999-12-31&to=2000-01-01', 'from: must not be before 2000-01-01'],
    ['to=9999-12-31', 'to: must not be after'],
    ['by=visitor', 'by: one of day, channel'],
    [`channel=${'x'.repeat(200)}`, 'channel: at most 128 characters'],
    ['compare=yesterday', 'compare: only previous'],
  ])('refuses %s with 400 and says which field and why', async (query, message) => {
    const res = await stats(query);
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain(message);
  });

  it('answers 503 with a message, not a crash, when D1 fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await stats('by=day', {}, { FUNNEL_DB: failingDb() });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: expect.stringContaining('unavailable') });
    vi.restoreAllMocks();
  });
});
