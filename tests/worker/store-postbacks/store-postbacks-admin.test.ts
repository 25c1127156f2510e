/**
 * The store postbacks' admin API and what surrounds it (docs/store-postbacks.md): sign-in, `since`,
 * the funnel's own figures left alone, and a refusal logged once per reason.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StorePostbacksView } from '../../../shared/store-postbacks.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { SKAN_3_WIN, SKAN_4_FINE } from '../../fixtures/apple-postbacks.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };
const SKAN = '/.well-known/skadnetwork/report-attribution/';

const post = (body: unknown) => fetchWorker(`${ORIGIN}${SKAN}`, { method: 'POST', body: JSON.stringify(body) });
const admin = (query: string, headers: Record<string, string> = auth) =>
  fetchWorker(`${ORIGIN}/api/store-postbacks${query}`, { headers });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('GET /api/store-postbacks', () => {
  it('needs the admin token', async () => {
    const res = await admin('', {});
    expect(res.status).toBe(401);
  });

  it('covers the last 7 days by default, a number of days, or from a day', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const week = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    expect(await (await admin('')).json()).toMatchObject({ since: week });
    expect(await (await admin('?since=1d')).json()).toMatchObject({ since: today });
    expect(await (await admin(`?since=${today}`)).json()).toMatchObject({ since: today });
  });

  it('refuses a since it cannot read, naming it', async () => {
    for (const since of ['yesterday', '2026-02-30', '0d', '400d', '2020-01-01']) {
      const res = await admin(`?since=${since}`);
      expect(res.status, since).toBe(400);
      expect(await res.json<{ error: string }>()).toMatchObject({ error: expect.stringMatching(/^since: /) });
    }
  });

  it("counts postbacks by day and framework, apart from the funnel's installs", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const installs = async () => {
      const res = await fetchWorker(`${ORIGIN}/api/stats?from=${today}&to=${today}&by=day`, { headers: auth });
      const body = await res.json<{ rows: { installs: number }[] }>();
      return body.rows.reduce((sum, row) => sum + row.installs, 0);
    };
    const before = await installs();
    expect((await post(SKAN_4_FINE)).status).toBe(200);
    expect((await post(SKAN_3_WIN)).status).toBe(200);
    const body = await (await admin('?since=1d')).json<StorePostbacksView>();
    expect(body.days).toEqual([{ day: today, skadnetwork: 2, adattributionkit: 0 }]);
    expect(await installs()).toBe(before);
  });
});

describe('refusals', () => {
  it('are answered every time and logged once per reason', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const forged = { ...SKAN_4_FINE, 'source-identifier': '1111' };
    expect((await post(forged)).status).toBe(400);
    expect((await post({ ...forged, 'source-identifier': '2222' })).status).toBe(400);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('bad-signature');
    const { 'attribution-signature': _, ...unsigned } = SKAN_4_FINE;
    expect((await post(unsigned)).status).toBe(400);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[1]?.[0])).toContain('missing-signature');
  });
});
