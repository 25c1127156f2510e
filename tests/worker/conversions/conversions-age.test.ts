/**
 * An event's own time at the platforms (docs/conversions.md#when-it-happened): the request carries
 * when the event happened, and a platform whose document refuses older events — Meta's `event_time`
 * up to 7 days before it is sent, GA4's `timestamp_micros` up to 72 hours — is not sent one older:
 * the request is not made (the delivery is `skipped`), where the platform would refuse it whole.
 */
import { describe, expect, it } from 'vitest';
import type { ConversionEvent } from '../../../worker/conversions/messages.ts';
import { requestFor, type Sendable } from '../../../worker/conversions/platforms/index.ts';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-29T12:00:00Z');

const event = (age: number): ConversionEvent => ({
  id: `late-${age}`,
  kind: 'event',
  name: 'purchase',
  at: NOW - age,
  app: 'com.pebble.notes',
  platform: null,
  install: 'aW5zdGFsbC1oYXNo',
  ad: null,
  clickedAt: null,
  country: 'DE',
  currency: 'EUR',
  amount: 499,
});

const meta: Sendable<'meta'> = {
  platform: 'meta',
  settings: { datasetId: '1234567890', appId: '987654321' },
  token: 'EAAB-meta-token',
  events: {},
};
const ga4: Sendable<'ga4'> = {
  platform: 'ga4',
  settings: { measurementId: 'G-TEST1234' },
  token: 'secret',
  events: {},
};
const tiktok: Sendable<'tiktok'> = {
  platform: 'tiktok',
  settings: { tiktokAppId: '7000000001' },
  token: 'tiktok-token',
  events: {},
};

async function body(destination: Sendable, age: number): Promise<Record<string, unknown> | null> {
  const request = await requestFor(destination, event(age), NOW);
  return request ? JSON.parse(request.body ?? '{}') : null;
}

describe('an event’s own time at the platforms', () => {
  it('goes to Meta as its event_time up to 7 days old, and not at all when older', async () => {
    const sixDays = await body(meta, 6 * 24 * HOUR);
    expect((sixDays?.data as { event_time: number }[])[0]?.event_time).toBe(Math.floor((NOW - 6 * 24 * HOUR) / 1000));
    expect(await body(meta, 7 * 24 * HOUR)).not.toBeNull();
    expect(await body(meta, 7 * 24 * HOUR + 1)).toBeNull();
  });

  it('goes to GA4 as its timestamp_micros up to 72 hours old, and not at all when older', async () => {
    expect((await body(ga4, 71 * HOUR))?.timestamp_micros).toBe((NOW - 71 * HOUR) * 1000);
    expect(await body(ga4, 72 * HOUR)).not.toBeNull();
    expect(await body(ga4, 72 * HOUR + 1)).toBeNull();
  });

  it('goes to a platform that documents no limit with the time it happened, however old', async () => {
    const old = await body(tiktok, 29 * 24 * HOUR);
    expect(JSON.stringify(old)).toContain(String(Math.floor((NOW - 29 * 24 * HOUR) / 1000)));
  });
});
