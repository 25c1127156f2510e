/**
 * The funnel's rollups against a reference count (docs/operators.md): random events, cut into random
 * batches, some batches delivered again, give exactly the figures counted one by one.
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeRollup } from '../../../worker/funnel/consume-batch.ts';
import type { FunnelEvent, FunnelMessage } from '../../../worker/funnel/events.ts';
import { readStats } from '../../../worker/funnel/stats-query.ts';
import { freshChannel, funnelMessage } from '../funnel-fixtures.ts';

const DAYS = ['2026-10-01', '2026-10-02'];

const eventArb: fc.Arbitrary<FunnelEvent> = fc.oneof(
  fc.constantFrom('download', 'landing').map((page) => ({ type: 'view', page }) as const),
  fc.constantFrom('download', 'store', 'open', 'guide').map((action) => ({ type: 'tap', action }) as const),
  fc.constantFrom('clipboard', 'apk').map((method) => ({ type: 'install', method }) as const),
  fc.constantFrom('register', 'pay').map((name) => ({ type: 'event', name }) as const),
);

const trafficArb = fc.record({
  events: fc.array(
    fc.record({
      event: eventArb,
      group: fc.integer({ min: 0, max: 1 }),
      day: fc.constantFrom(...DAYS),
      visitor: fc.option(fc.constantFrom('p1', 'p2', 'p3'), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 40 },
  ),
  cuts: fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 5 }),
  redeliver: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
});

interface Reference {
  views: number;
  taps: number;
  installs: number;
  events: Record<string, number>;
  visitors: Set<string>;
}

describe('the funnel rollups', () => {
  it('equal a reference count of random events, whatever the batches and redeliveries', async () => {
    await fc.assert(
      fc.asyncProperty(trafficArb, async ({ events, cuts, redeliver }) => {
        const channels = [freshChannel(), freshChannel()];
        const messages: FunnelMessage[] = events.map(({ event, group, day, visitor }) =>
          funnelMessage(
            event,
            { channel: channels[group] ?? '' },
            { day, ...(visitor ? { visitor: `${day}/${visitor}` } : {}) },
          ),
        );
        const reference = new Map<string, Reference>();
        for (const message of messages) {
          const ref = reference.get(message.dims.channel) ?? {
            views: 0,
            taps: 0,
            installs: 0,
            events: {},
            visitors: new Set(),
          };
          const { event } = message;
          if (event.type === 'view') ref.views += 1;
          if (event.type === 'tap') ref.taps += 1;
          if (event.type === 'install') ref.installs += 1;
          if (event.type === 'event') ref.events[event.name] = (ref.events[event.name] ?? 0) + 1;
          // Only a view makes a visitor (docs/operators.md#visitors).
          if (message.visitor && event.type === 'view') ref.visitors.add(message.visitor);
          reference.set(message.dims.channel, ref);
        }
        const points = [...new Set([0, ...cuts.filter((cut) => cut < messages.length), messages.length])].sort(
          (a, b) => a - b,
        );
        for (let at = 0; at + 1 < points.length; at += 1) {
          const batch = messages.slice(points[at], points[at + 1]);
          await writeRollup(env.FUNNEL_DB, batch);
          if (redeliver[at]) await writeRollup(env.FUNNEL_DB, batch);
        }
        const { rows } = await readStats(env.FUNNEL_DB, 'default', {
          from: DAYS[0] ?? '',
          to: DAYS[1] ?? '',
          by: 'channel',
        });
        for (const channel of channels) {
          const row = rows.find((candidate) => candidate.key === channel);
          const ref = reference.get(channel);
          expect(
            row && {
              views: row.views,
              taps: row.taps,
              installs: row.installs,
              events: row.events,
              visitors: row.visitors,
            },
          ).toEqual(
            ref && {
              views: ref.views,
              taps: ref.taps,
              installs: ref.installs,
              events: ref.events,
              visitors: ref.visitors.size,
            },
          );
        }
      }),
      { numRuns: 100 },
    );
  });
});
