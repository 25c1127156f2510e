/**
 * The funnel's days in the operator's time zone (docs/operators.md#days-and-time-zones): with
 * `funnel.time_zone` stored, a view counted now lands on that zone's day through the real queue and
 * D1, and `/api/stats`' default range ends on that zone's today and names the zone.
 */
import { exports } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import { lastDay } from '../../../shared/day-range.ts';
import { dayIn } from '../../../shared/time-zone.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import type { StatsResult } from '../../../worker/funnel/stats-query.ts';
import { DEV_ADMIN_TOKEN, DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { demoWith } from '../../fixtures/config.ts';
import { freshChannel } from '../funnel-fixtures.ts';
import { clearConfig, get, ORIGIN, storeConfig } from '../helpers.ts';

const ADMIN = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };

async function stats(query: string): Promise<StatsResult> {
  const res = await exports.default.fetch(new Request(`${ORIGIN}/api/stats?${query}`, { headers: ADMIN }));
  expect(res.status).toBe(200);
  return res.json();
}

/**
 * A zone whose day differs from UTC's when the test runs, so the test fails if days stay UTC:
 * UTC+14 from 10:00 UTC on, UTC−11 before 11:00 UTC.
 */
const zone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';

describe("the funnel's days in the operator's time zone", () => {
  afterAll(clearConfig);

  it("counts a view on the zone's day, and the stats' today is that zone's", async () => {
    await storeConfig({ ...demoWith({}), funnel: { time_zone: zone } });
    const channel = freshChannel();
    const before = Date.now();
    const res = await get(`/landing?d=${encryptToken(JSON.stringify({ channel }), DEV_DECODE_KEY)}`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const day = dayIn(zone, before);
    expect(day).not.toBe(new Date(before).toISOString().slice(0, 10));

    // The latest day a range may name (tomorrow in the zone furthest ahead): any later `to` is refused.
    const range = `from=${dayIn('UTC', before - 2 * 86_400_000)}&to=${lastDay(before)}`;
    await expect
      .poll(
        async () =>
          (await stats(`by=day&channel=${channel}&${range}`)).rows
            .filter((row) => row.views > 0)
            .map((row) => [row.key, row.views]),
        {
          timeout: 20_000,
        },
      )
      .toEqual([[day, 1]]);

    const answer = await stats('by=day');
    expect(answer.timeZone).toBe(zone);
    expect(answer.to).toBe(dayIn(zone, Date.now()));
  });

  it('stays on UTC without a zone', async () => {
    await clearConfig();
    const answer = await stats('by=day');
    expect(answer.timeZone).toBe('UTC');
    expect(answer.to).toBe(new Date().toISOString().slice(0, 10));
  });
});
