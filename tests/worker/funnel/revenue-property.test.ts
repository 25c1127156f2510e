/**
 * Revenue (docs/operators.md#revenue) through the real worker, queue and D1: random app events with
 * a value and a currency — purchases, refunds as negative values, single calls and batches, some
 * retried with their ids — from an install matched to a channel's tap and from an organic one.
 * `/api/stats` must then give, per day and per channel, each currency's sum to the minor unit, the
 * refunds and the events, each retried id once.
 *
 * Each run lives on a day of its own (the clock is set to it: `Date` only, timers run).
 */
import { exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../../shared/day-range.ts';
import { majorText } from '../../../shared/money.ts';
import type { StatsResult } from '../../../worker/funnel/stats-query.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { APP_ID, clickBody, installBody, PHONES } from '../../fixtures/fake-app.ts';
import { APP_HEADERS, campaign, carrierLink, issueClickId, send } from '../app-calls.ts';
import { freshChannel } from '../funnel-fixtures.ts';

const ADMIN = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };
const CURRENCIES = { USD: 2, JPY: 0, KWD: 3, EUR: 2 } as const;
type Code = keyof typeof CURRENCIES;

const eventArb = fc.record({
  install: fc.nat(1),
  currency: fc.constantFrom(...(Object.keys(CURRENCIES) as Code[])),
  // Minor units; a refund is negative, under either name.
  amount: fc.integer({ min: -500_000, max: 2_000_000 }),
  name: fc.constantFrom('purchase', 'refund'),
  named: fc.boolean(),
  again: fc.boolean(),
  batch: fc.boolean(),
});

interface Sum {
  events: number;
  amount: number;
  refunds: number;
}
type Figures = Record<string, Record<string, Sum>>;

const addTo = (figures: Figures, key: string, currency: string, amount: number) => {
  const row = figures[key] ?? {};
  const sum = row[currency] ?? { events: 0, amount: 0, refunds: 0 };
  row[currency] = { events: sum.events + 1, amount: sum.amount + amount, refunds: sum.refunds + Math.max(0, -amount) };
  figures[key] = row;
};

async function stats(query: string): Promise<StatsResult> {
  const res = await exports.default.fetch(new Request(`https://lander.test/api/stats?${query}`, { headers: ADMIN }));
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** A matched install of `channel`'s tap and an organic one, from networks of the run's own. */
async function installs(run: number, channel: string): Promise<{ installId: string; address: string }[]> {
  const d = campaign({ channel, inviter: 'Ann' });
  const clickId = await issueClickId();
  const tapAddress = `192.0.${run % 250}.9`;
  const tap = await send('/api/a/click', clickBody(PHONES.iPhone15, { clickId, action: 'store', d }), {
    'user-agent': UA.iPhoneSafari,
    'cf-connecting-ip': tapAddress,
  });
  expect(tap.status).toBe(204);
  const made = [];
  for (const [at, carrier] of [`${clickId}.${d}`, undefined].entries()) {
    const installId = `install-${crypto.randomUUID()}`;
    const address = `198.18.${run % 250}.${at + 1}`;
    const body = installBody(
      PHONES.iPhone15,
      installId,
      carrier ? { clipboard: carrierLink(carrier) } : undefined,
      APP_ID,
    );
    const res = await send('/api/a/install', body, { ...APP_HEADERS, 'cf-connecting-ip': address });
    const answer = (await res.json()) as { matched: boolean };
    expect(answer.matched).toBe(carrier !== undefined);
    made.push({ installId, address });
  }
  return made;
}

let runs = 0;

describe('revenue, through the worker, the queue and D1', () => {
  afterAll(() => {
    vi.useRealTimers();
  });

  it('per currency, day and channel equals the sum of the events to the minor unit, refunds and retried ids included', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 16 }), async (events) => {
        runs += 1;
        const day = addDays('2004-06-01', runs * 2);
        vi.setSystemTime(new Date(`${day}T12:00:00Z`));
        const channel = freshChannel();
        const apps = await installs(runs, channel);
        const expected: Figures = {};
        const sent: { install: number; body: { id?: string } & Record<string, unknown> }[] = [];
        for (const event of events) {
          const app = apps[event.install];
          if (!app) continue;
          const again = event.again ? sent.find((earlier) => earlier.install === event.install) : undefined;
          const item: { id?: string } & Record<string, unknown> = again?.body ?? {
            name: event.name,
            value: Number(majorText(event.amount, CURRENCIES[event.currency])),
            currency: event.currency,
            ...(event.named || event.batch ? { id: `rev-${crypto.randomUUID().slice(0, 12)}` } : {}),
          };
          const { installId, address } = app;
          const body =
            event.batch && item.id ? { app: APP_ID, installId, events: [item] } : { app: APP_ID, installId, ...item };
          const res = await send('/api/a/event', body, { ...APP_HEADERS, 'cf-connecting-ip': address });
          expect(res.status, await res.clone().text()).toBe(204);
          // A retried id counts once: only a new event adds to the reference.
          if (again) continue;
          if (item.id) sent.push({ install: event.install, body: item });
          addTo(expected, event.install === 0 ? channel : '', event.currency, event.amount);
        }
        const read = async () => {
          const [byChannel, byDay] = await Promise.all([
            stats(`by=channel&from=${day}&to=${day}`),
            stats(`by=day&from=${day}&to=${day}`),
          ]);
          const strip = (revenue: StatsResult['rows'][number]['revenue']) =>
            Object.fromEntries(
              Object.entries(revenue ?? {}).map(([code, { events, amount, refunds }]) => [
                code,
                { events, amount, refunds },
              ]),
            );
          const channels = Object.fromEntries(
            byChannel.rows
              .filter((row) => Object.keys(row.revenue ?? {}).length > 0)
              .map((row) => [row.key, strip(row.revenue)]),
          );
          return { channels, day: strip(byDay.rows[0]?.revenue) };
        };
        const total: Record<string, Sum> = {};
        for (const row of Object.values(expected))
          for (const [code, sum] of Object.entries(row)) {
            const before = total[code] ?? { events: 0, amount: 0, refunds: 0 };
            total[code] = {
              events: before.events + sum.events,
              amount: before.amount + sum.amount,
              refunds: before.refunds + sum.refunds,
            };
          }
        // The queue delivers within a second or two, much later beside a whole suite on two cores.
        await expect.poll(read, { timeout: 45_000, interval: 500 }).toEqual({ channels: expected, day: total });
      }),
      { numRuns: 8, interruptAfterTimeLimit: 150_000 },
    );
  }, 240_000);
});
