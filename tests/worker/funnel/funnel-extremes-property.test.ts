/**
 * Extreme event values never cost the funnel a count (docs/operators.md#bounds, docs/reliability.md):
 * random traffic through the real worker, queue and D1 — page views, taps, installs, app events whose
 * values reach ±1.7e308, batches of 50, raw `1e400` bodies, and messages queued before the bound with
 * ±1.7e308, ±Infinity and NaN — gives exactly the reference figures: every accepted call and every
 * queued message counted, each finite value held to ±1e12 and a non-finite one adding nothing, every
 * sum finite, nothing dropped as malformed; a refused call counts nothing.
 */
import { env, exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../../shared/time-zone.ts';
import { MAX_EVENT_VALUE } from '../../../worker/facts.ts';
import { type FunnelMessage, NO_DIMENSIONS } from '../../../worker/funnel/events.ts';
import { readLosses } from '../../../worker/reliability/losses.ts';
import { UA } from '../../fixtures/agents.ts';
import { installBody, PHONES } from '../../fixtures/fake-app.ts';
import { APP_HEADERS, campaign, carrierLink, click, counted, network, newInstallId, send } from '../app-calls.ts';
import { get, ORIGIN } from '../helpers.ts';

const APP = 'com.pebble.notes';
const NAMES = ['pay', 'buy'] as const;

/** Values the API takes: exact in binary, so any order of adding gives the same sum. */
const inBound = fc.constantFrom(MAX_EVENT_VALUE, -MAX_EVENT_VALUE, 0, 0.5, 3, -7, 1_000_000);
/** Values it refuses: finite, but past the bound; their sum overflows a double. */
const pastBound = fc.constantFrom(1.7e308, -1.7e308, Number.MAX_VALUE, -Number.MAX_VALUE, MAX_EVENT_VALUE + 1);
/** What a message queued before the bound may carry (the local queue turns ±Infinity and NaN into null). */
const legacyValue = fc.constantFrom(1.7e308, -1.7e308, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN);

const eventArb = fc.record({
  name: fc.constantFrom(...NAMES),
  value: fc.option(fc.oneof({ weight: 4, arbitrary: inBound }, { weight: 1, arbitrary: pastBound }), {
    nil: undefined,
  }),
});

const actionArb = fc.oneof(
  fc.constant({ kind: 'view' as const }),
  fc.constant({ kind: 'tap' as const }),
  fc.constant({ kind: 'install' as const }),
  fc.record({ kind: fc.constant('events' as const), events: fc.array(eventArb, { minLength: 1, maxLength: 50 }) }),
  fc.record({ kind: fc.constant('single' as const), event: eventArb }),
  fc.constant({ kind: 'raw' as const }),
  fc.record({ kind: fc.constant('legacy' as const), values: fc.array(legacyValue, { minLength: 1, maxLength: 6 }) }),
);

/** What the figures of a run's channel must be. */
class Reference {
  readonly counts: Record<string, number> = {};

  add(metric: string, value?: number): void {
    this.counts[metric] = (this.counts[metric] ?? 0) + 1;
    if (value === undefined || !Number.isFinite(value)) return;
    const held = Math.min(MAX_EVENT_VALUE, Math.max(-MAX_EVENT_VALUE, value));
    this.counts[`${metric}:value`] = (this.counts[`${metric}:value`] ?? 0) + held;
    // `counted` leaves out a sum of 0, as it reads.
    if (this.counts[`${metric}:value`] === 0) delete this.counts[`${metric}:value`];
  }
}

let runs = 0;

describe('the funnel with extreme event values', () => {
  it('counts every accepted call and every message that parses, and no sum is ever infinite', {
    timeout: 300_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionArb, { minLength: 1, maxLength: 10 }), async (actions) => {
        runs += 1;
        const channel = `xv-${runs}-${crypto.randomUUID().slice(0, 8)}`;
        const d = campaign({ channel });
        const at = network(13);
        const ref = new Reference();
        const malformedBefore = (await readLosses(env, 1))['funnel-malformed'];

        /** A tap on the campaign's page, and an install it is matched to by its carrier. */
        const install = async (): Promise<string> => {
          const { clickId } = await click(PHONES.iPhone15, at(1), { d });
          ref.add('tap:download');
          const installId = newInstallId();
          const body = installBody(PHONES.iPhone15, installId, { clipboard: carrierLink(`${clickId}.${d}`) });
          const res = await send('/api/a/install', body, { ...APP_HEADERS, 'cf-connecting-ip': at(1) });
          expect(res.status).toBe(200);
          ref.add('install:clipboard');
          return installId;
        };
        const installId = await install();

        for (const action of actions) {
          if (action.kind === 'view') {
            const res = await get(`/landing?d=${d}`, { userAgent: UA.iPhoneSafari });
            expect(res.status).toBe(200);
            await res.arrayBuffer();
            ref.add('view:landing');
          } else if (action.kind === 'tap') {
            await click(PHONES.iPhone15, at(1), { d });
            ref.add('tap:download');
          } else if (action.kind === 'install') await install();
          else if (action.kind === 'events' || action.kind === 'single') {
            const events = action.kind === 'events' ? action.events : [action.event];
            const body =
              action.kind === 'events'
                ? {
                    app: APP,
                    installId,
                    events: events.map((event) => ({ id: `evt-${crypto.randomUUID()}`, ...event })),
                  }
                : { app: APP, installId, ...action.event };
            const res = await send('/api/a/event', body, APP_HEADERS);
            const accepted = events.every(({ value }) => value === undefined || Math.abs(value) <= MAX_EVENT_VALUE);
            // The bound refuses the whole call, naming the field; nothing of it is counted.
            expect(res.status, await res.clone().text()).toBe(accepted ? 204 : 400);
            if (!accepted) expect(((await res.json()) as { error: string }).error).toMatch(/value: must be between/);
            if (accepted) for (const { name, value } of events) ref.add(`event:${name}`, value);
          } else if (action.kind === 'raw') {
            const res = await exports.default.fetch(
              new Request(`${ORIGIN}/api/a/event`, {
                method: 'POST',
                body: `{"app":"${APP}","installId":"${installId}","name":"pay","value":1e400}`,
                headers: { 'content-type': 'application/json', ...APP_HEADERS },
              }),
            );
            expect(res.status).toBe(400);
          } else {
            // Messages already in the queue when the bound was deployed: no app, no install.
            const messages = action.values.map(
              (value): FunnelMessage => ({
                v: 1,
                id: `legacy-${crypto.randomUUID()}`,
                day: utcDay(Date.now()),
                event: { type: 'event', name: 'pay', value },
                dims: { ...NO_DIMENSIONS, channel },
              }),
            );
            await env.FUNNEL_QUEUE.sendBatch(messages.map((body) => ({ body })));
            for (const value of action.values) ref.add('event:pay', value);
          }
        }

        await expect
          .poll(
            async () => ({
              counts: await counted(channel),
              malformed: (await readLosses(env, 1))['funnel-malformed'] - malformedBefore,
            }),
            { timeout: 30_000 },
          )
          .toEqual({ counts: ref.counts, malformed: 0 });
      }),
      { numRuns: 20 },
    );
  });
});
