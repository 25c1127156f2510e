/**
 * `GET /api/stats` (docs/operators.md): grouping, filters, CSV, and a message for every refused query.
 * Each test writes its own rollups (under its own channel) through the consumer's writer.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { writeRollup } from '../../worker/funnel/consume-batch.ts';
import { DEV_ADMIN_TOKEN } from '../../worker/settings.ts';
import { failingDb, freshChannel, funnelMessage } from './funnel-fixtures.ts';
import { fetchWorker } from './helpers.ts';

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
    expect(header?.endsWith(',opens,event:register')).toBe(true);
    expect(row?.startsWith(`"'=HYPERLINK(""x"")",1,0,0,`)).toBe(true);
    expect(row?.endsWith(',0,1')).toBe(true);
  });

  it.each([
    ['from=2026-13-01', 'from must be a date'],
    ['from=2026-02-30', 'from must be a date'],
    ['to=tomorrow', 'to must be a date'],
    ['from=2026-03-02&to=2026-03-01', 'from is after to'],
    ['from=2024-01-01&to=2026-01-01', 'at most 366 days'],
    ['by=visitor', 'by is one of day, channel'],
    [`channel=${'x'.repeat(200)}`, 'at most 128 characters'],
  ])('refuses %s with 400 and says why', async (query, message) => {
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
