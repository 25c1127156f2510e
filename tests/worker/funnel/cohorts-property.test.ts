/**
 * Cohorts (docs/operators.md#cohorts) through the real queue, consumer and D1: random installs
 * (days, channels, inviters, methods), their opens and app events (some with a currency, some late
 * by days, some sent days after they happened with their own day (`on`, the app's `at`), some before
 * their install is counted, some retried, some of installs never counted), sent
 * through FUNNEL_QUEUE in random order and chunks. `/api/cohorts` must then equal a brute-force
 * recount of the same events, cohort by cohort, day by day, currency by currency: 0 mismatches.
 */
import { env, exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CohortsAnswer } from '../../../shared/cohorts.ts';
import { addDays } from '../../../shared/day-range.ts';
import { utcDay } from '../../../shared/time-zone.ts';
import type { FunnelMessage } from '../../../worker/funnel/events.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { type CohortEvent, type CohortInstall, recount } from '../../fixtures/cohort-recount.ts';
import { funnelMessage } from '../funnel-fixtures.ts';

const ADMIN = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };
const METHODS = ['clipboard', 'referrer', 'unmatched:none'] as const;

const installArb = fc.record({
  day: fc.integer({ min: 0, max: 12 }),
  channel: fc.nat(2),
  inviter: fc.constantFrom('', 'Ann'),
  method: fc.constantFrom(...METHODS),
});
const eventArb = fc.record({
  install: fc.nat(5),
  // Often the same few days, so one install's day often has several events; sometimes any, late ones included.
  age: fc.oneof(fc.constantFrom(0, 1, 7, 90, 91), fc.integer({ min: -1, max: 95 })),
  kind: fc.constantFrom('open', 'event', 'event'),
  currency: fc.constantFrom('', 'USD', 'JPY'),
  amount: fc.integer({ min: -5_000, max: 20_000 }),
  again: fc.boolean(),
  // Days an app event reached the worker after it happened (an app offline, its `at` sent with it).
  late: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })),
});
const runArb = fc.record({
  installs: fc.array(installArb, { minLength: 1, maxLength: 8 }),
  events: fc.array(eventArb, { maxLength: 40 }),
  seed: fc.integer(),
  chunks: fc.integer({ min: 1, max: 3 }),
});

async function cohorts(query: string): Promise<CohortsAnswer> {
  const res = await exports.default.fetch(new Request(`https://lander.test/api/cohorts?${query}`, { headers: ADMIN }));
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** Sends `messages` through the queue and waits until the consumer has recorded every id. */
async function throughQueue(messages: FunnelMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await env.FUNNEL_QUEUE.sendBatch(messages.map((body) => ({ body })));
  const ids = [...new Set(messages.map((message) => message.id))];
  await expect
    .poll(
      async () => {
        const row = await env.FUNNEL_DB.prepare(
          'SELECT COUNT(*) AS n FROM funnel_messages WHERE app = ?1 AND id IN (SELECT value FROM json_each(?2))',
        )
          .bind('default', JSON.stringify(ids))
          .first<{ n: number }>();
        return row?.n ?? 0;
      },
      { timeout: 60_000, interval: 100 },
    )
    .toBe(ids.length);
}

/** `items` shuffled by `seed` (a small LCG: the run replays). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  for (let at = out.length - 1; at > 0; at -= 1) {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    const other = state % (at + 1);
    [out[at], out[other]] = [out[other] as T, out[at] as T];
  }
  return out;
}

let runs = 0;

describe('cohorts through the queue', () => {
  it('answer exactly what a brute-force recount of the events gives', { timeout: 600_000 }, async () => {
    const today = utcDay(Date.now());
    const first = addDays(today, -60);
    await fc.assert(
      fc.asyncProperty(runArb, async (run) => {
        runs += 1;
        const prefix = `coh-${crypto.randomUUID().slice(0, 6)}-${runs}`;
        const installs: CohortInstall[] = run.installs.map((install, index) => ({
          key: `${prefix}-i${index}`,
          day: addDays(first, install.day),
          channel: `${prefix}-c${install.channel}`,
          inviter: install.inviter,
          method: install.method,
        }));
        const messages: FunnelMessage[] = installs.map((install) =>
          funnelMessage(
            install.method.startsWith('unmatched:')
              ? { type: 'install', unmatched: 'none' }
              : { type: 'install', method: install.method as 'clipboard' | 'referrer' },
            { channel: install.channel, inviter: install.inviter },
            { id: `install:${install.key}`, day: install.day },
          ),
        );
        const events: CohortEvent[] = [];
        for (const event of run.events) {
          // An install index past the run's installs is one never counted: its events count nowhere.
          const key = `${prefix}-i${event.install}`;
          const known = installs[event.install];
          const day = addDays(known?.day ?? first, event.age);
          const money =
            event.kind === 'event' && event.currency !== '' ? { currency: event.currency, amount: event.amount } : {};
          // An app event sent late is received on a later day and carries its own (record-event.ts `on`).
          const late = event.kind === 'event' ? event.late : 0;
          const message: FunnelMessage = {
            ...funnelMessage(
              event.kind === 'open'
                ? { type: 'open', method: 'clipboard' }
                : { type: 'event', name: 'purchase', ...money },
              { channel: 'elsewhere' },
              { day: addDays(day, late) },
            ),
            ...(late > 0 ? { on: day } : {}),
            install: key,
            app: 'com.pebble.notes',
          };
          events.push({ id: message.id, install: key, day, currency: event.currency, amount: money.amount ?? 0 });
          messages.push(message);
          if (event.again) messages.push(message);
        }
        const order = shuffled(messages, run.seed);
        const size = Math.ceil(order.length / run.chunks);
        for (let at = 0; at < order.length; at += size) await throughQueue(order.slice(at, at + size));
        const expected = recount(installs, events, today, 90);
        const answer = await cohorts(`by=channel&from=${first}&to=${addDays(first, 12)}&ages=90`);
        const got = answer.rows.filter((row) => row.key.startsWith(prefix));
        expect(got).toEqual(expected);
      }),
      { numRuns: 12 },
    );
  });
});
