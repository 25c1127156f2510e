/**
 * A tap is counted on the day it was made (docs/operators.md#days-and-time-zones), though its short
 * link is looked up and the tap counted after the response: a tap a moment before midnight is the
 * old day's, whenever the lookup ends.
 */
import { exports } from 'cloudflare:workers';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { StatsResult } from '../../../worker/funnel/stats-query.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { clickBody, PHONES } from '../../fixtures/fake-app.ts';
import { issueClickId, send } from '../app-calls.ts';
import { freshChannel } from '../funnel-fixtures.ts';
import { ORIGIN } from '../helpers.ts';

const ADMIN = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };

async function stats(query: string): Promise<StatsResult> {
  const res = await exports.default.fetch(new Request(`${ORIGIN}/api/stats?${query}`, { headers: ADMIN }));
  expect(res.status).toBe(200);
  return res.json();
}

describe("a tap's day", () => {
  afterAll(() => {
    vi.useRealTimers();
  });

  it('is the day of the tap, not of the moment its link was looked up', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2004-02-10T12:00:00Z'));
    const channel = freshChannel();
    const created = await send('/api/links', { channel, inviter: 'Dee' }, ADMIN);
    expect(created.status).toBe(201);
    const { slug, url } = (await created.json()) as { slug: string; url: string };
    const d = new URL(url).searchParams.get('d') ?? '';
    const clickId = await issueClickId();

    vi.setSystemTime(new Date('2004-02-10T23:59:59.900Z'));
    const tapped = await send(
      '/api/a/click',
      {
        ...clickBody(PHONES.iPhone15, { clickId, action: 'store', d }),
        link: slug,
      },
      {},
    );
    expect(tapped.status).toBe(204);
    // Midnight passes while the link is looked up.
    vi.setSystemTime(new Date('2004-02-11T12:00:00Z'));

    await expect
      .poll(
        async () =>
          (await stats(`by=day&channel=${channel}&from=2004-02-09&to=2004-02-12`)).rows
            .filter((row) => row.taps > 0)
            .map((row) => [row.key, row.taps]),
        { timeout: 20_000 },
      )
      .toEqual([['2004-02-10', 1]]);
  });
});
