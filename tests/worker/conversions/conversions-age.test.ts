/**
 * An event's own time at the platforms (docs/conversions.md#when-it-happened): the request carries
 * when the event happened, and a platform whose document refuses older events — Meta's `event_time`
 * up to 7 days before it is sent, GA4's `timestamp_micros` up to 72 hours — is not sent one older:
 * the request is not made (the delivery is `skipped`, its log says why), where the platform would
 * refuse it whole.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversionAttemptView } from '../../../shared/conversions.ts';
import type { ConversionEvent } from '../../../worker/conversions/messages.ts';
import { requestFor, type Sendable } from '../../../worker/conversions/platforms/index.ts';
import {
  addDestination,
  admin,
  drive,
  everyPlatform,
  fakeEnv,
  fakeLog,
  freshKey,
  removeDestinations,
} from './conversion-fixtures.ts';

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

/** The destination of `platform` the other conversions tests add (conversion-fixtures.ts), as the sender reads it. */
function sendable(platform: 'meta' | 'ga4' | 'snap' | 'tiktok'): Sendable {
  const added = (everyPlatform('age') as { platform: string }[]).find((one) => one.platform === platform);
  return { events: {}, ...added } as Sendable;
}
const [meta, ga4, snap, tiktok] = [sendable('meta'), sendable('ga4'), sendable('snap'), sendable('tiktok')];

async function body(destination: Sendable, age: number): Promise<Record<string, unknown> | null> {
  const request = await requestFor(destination, event(age), NOW);
  return request ? JSON.parse(request.body ?? '{}') : null;
}

describe('an event’s own time at the platforms', () => {
  it('goes to Meta as its event_time up to 7 days old, and not at all when older', async () => {
    const sixDays = await body(meta, 6 * 24 * HOUR);
    const [sent] = (sixDays?.data ?? []) as { event_time: number }[];
    expect(sent?.event_time).toBe(Math.floor((NOW - 6 * 24 * HOUR) / 1000));
    expect(await body(meta, 7 * 24 * HOUR)).not.toBeNull();
    expect(await body(meta, 7 * 24 * HOUR + 1)).toBeNull();
  });

  it('goes to GA4 as its timestamp_micros up to 72 hours old, and not at all when older', async () => {
    expect((await body(ga4, 71 * HOUR))?.timestamp_micros).toBe((NOW - 71 * HOUR) * 1000);
    expect(await body(ga4, 72 * HOUR)).not.toBeNull();
    expect(await body(ga4, 72 * HOUR + 1)).toBeNull();
  });

  it('goes to Snap as its event_time up to 37 days old, and not at all when older', async () => {
    const [sent] = ((await body(snap, 36 * 24 * HOUR))?.data ?? []) as { event_time: number }[];
    expect(sent?.event_time).toBe(Math.floor((NOW - 36 * 24 * HOUR) / 1000));
    expect(await body(snap, 37 * 24 * HOUR)).not.toBeNull();
    expect(await body(snap, 37 * 24 * HOUR + 1)).toBeNull();
  });

  it('is sent iff it is no older than its platform takes, with the time it happened, for every age', async () => {
    const limits = [
      [meta, 7 * 24 * HOUR],
      [ga4, 72 * HOUR],
      [snap, 37 * 24 * HOUR],
      [tiktok, Number.POSITIVE_INFINITY],
    ] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...limits),
        fc.integer({ min: 0, max: 45 * 24 * HOUR }),
        async ([to, max], age) => {
          const sent = await body(to, age);
          expect(sent !== null).toBe(age <= max);
          if (sent) expect(JSON.stringify(sent)).toContain(String(Math.floor((NOW - age) / 1000)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('goes to a platform that documents no limit with the time it happened, however old', async () => {
    const old = await body(tiktok, 29 * 24 * HOUR);
    expect(JSON.stringify(old)).toContain(String(Math.floor((NOW - 29 * 24 * HOUR) / 1000)));
  });
});

afterEach(removeDestinations);

describe('an event older than its platform takes, through the conversion queue', () => {
  it('is not sent, its delivery skipped, and the log says why', async () => {
    const key = freshKey();
    const destination = await addDestination({
      platform: 'meta',
      settings: { datasetId: '1234567890', appId: '987654321' },
      token: 'EAAB-meta-token',
    });
    const now = Date.now();
    const install = `aged-${key}`;
    const base = { ...event(0), install, platform: 'ios' as const, currency: undefined, amount: undefined };
    const messages = [
      { ...base, id: `${key}-install`, kind: 'install' as const, name: 'install', at: now },
      { ...base, id: `${key}-recent`, name: 'register', at: now - 2 * 24 * HOUR },
      { ...base, id: `${key}-aged`, name: 'purchase', at: now - 9 * 24 * HOUR },
    ].map((one) => ({ k: 'event' as const, tenant: 'default', event: one }));
    await drive(fakeEnv(key), messages);
    const sent = ((await fakeLog(key)).bodies.meta ?? []) as { data: { event_name: string }[] }[];
    expect(sent.map((body) => body.data[0]?.event_name).sort()).toEqual(['CompleteRegistration', 'MobileAppInstall']);
    const res = await admin(`/destinations/${destination.id}/attempts`);
    const { attempts } = (await res.json()) as { attempts: ConversionAttemptView[] };
    const aged = attempts.find((attempt) => attempt.name === 'purchase');
    expect(aged).toMatchObject({ outcome: 'failed', status: 0 });
    expect(aged?.error).toBe('not sent: it happened 9 days ago, older than meta takes');
  });
});
