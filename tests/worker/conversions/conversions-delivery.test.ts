/**
 * Conversions out through the real consumer, D1 and `fetch` (docs/conversions.md#delivery): random
 * installs, opens and app events fanned out to one destination of every platform, each request held
 * by the platforms' fake to its platform's documented schema, with 30 % of requests failing (503 or
 * no answer within the attempt's time). Properties: every request is valid, and every (destination,
 * event) the destination sends is accepted exactly once — or, after every attempt failed, marked dead
 * and never accepted.
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { AD_CLICK_PARAM_NAMES } from '../../../shared/ad-clicks.ts';
import type { StoredDestination } from '../../../worker/conversions/destinations.ts';
import { listDestinations } from '../../../worker/conversions/destinations.ts';
import type { ConversionEvent, ConversionEventMessage } from '../../../worker/conversions/messages.ts';
import { platformNameOf, requestFor } from '../../../worker/conversions/platforms/index.ts';
import {
  addDestination,
  drive,
  everyPlatform,
  fakeEnv,
  fakeLog,
  freshKey,
  removeDestinations,
  setFakeMode,
} from './conversion-fixtures.ts';

const name = fc.oneof(
  fc.constantFrom('register', 'purchase', 'level_up', 'tutorial.done', 'share-post', '2nd_session'),
  fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,39}$/),
);
const adValue = fc.stringMatching(/^[\x21-\x7e]{1,40}$/);
const ad = fc.option(
  fc.record(Object.fromEntries(AD_CLICK_PARAM_NAMES.map((param) => [param, adValue])), { requiredKeys: [] }),
  { nil: null },
);
const install = fc.record({
  platform: fc.constantFrom('ios' as const, 'android' as const, 'harmony' as const),
  ad,
  events: fc.array(name, { maxLength: 3 }),
  opens: fc.nat(2),
  country: fc.constantFrom('NL', 'CN', 'US', ''),
});

type InstallCase = typeof install extends fc.Arbitrary<infer T> ? T : never;

let serial = 0;
const idOf = (): string => `e${(serial++).toString(36)}${crypto.randomUUID().slice(0, 8)}`;

/** The messages of `installs`: each install, then its opens and events, in one stream. */
function messagesOf(installs: InstallCase[], at: number): ConversionEventMessage[] {
  return installs.flatMap((one, index) => {
    const hash = `h${idOf()}`;
    // Each install's callbacks are its own: Ocean Engine tells conversions apart by them.
    const own = one.ad
      ? Object.fromEntries(Object.entries(one.ad).map(([param, value]) => [param, `${value}-${index}-${hash}`]))
      : null;
    const common = {
      at,
      app: 'com.pebble.notes',
      install: hash,
      ad: own,
      clickedAt: own ? at - 60_000 : null,
      country: one.country,
    };
    const events: ConversionEvent[] = [
      { ...common, id: idOf(), kind: 'install', name: 'install', platform: one.platform },
      ...Array.from(
        { length: one.opens },
        (): ConversionEvent => ({ ...common, id: idOf(), kind: 'open', name: 'open', platform: null }),
      ),
      ...one.events.map(
        (event): ConversionEvent => ({ ...common, id: idOf(), kind: 'event', name: event, platform: null }),
      ),
    ];
    return events.map((event) => ({ k: 'event' as const, tenant: 'default', event }));
  });
}

/** The `<platform> <event key>` the fake counts each expected delivery under. */
async function expectedKeys(destinations: StoredDestination[], messages: ConversionEventMessage[]): Promise<string[]> {
  const keys: string[] = [];
  for (const { event } of messages) {
    for (const destination of destinations) {
      if (platformNameOf(destination, event) === null) continue;
      const request = await requestFor(destination, event);
      if (!request) continue;
      const body = request.body ? JSON.parse(request.body) : null;
      if (destination.platform === 'oceanengine')
        keys.push(`oceanengine ${body.context.ad.callback}|${body.event_type}`);
      else if (destination.platform === 'postback') keys.push(`postback ${event.id}`);
      else if (destination.platform === 'ga4') keys.push(`ga4 ${event.id}`);
      else keys.push(`${destination.platform} ${event.id}`);
    }
  }
  return keys;
}

/** How many times each key occurs. */
function countsOf(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

afterEach(removeDestinations);

describe('conversions delivered', () => {
  it('sends every platform only requests its documented schema accepts, over random events', async () => {
    const key = freshKey();
    for (const body of everyPlatform(key)) await addDestination(body);
    const destinations = await listDestinations(env.FUNNEL_DB, 'default');
    await fc.assert(
      fc.asyncProperty(fc.array(install, { minLength: 1, maxLength: 5 }), async (installs) => {
        const messages = messagesOf(installs, Date.now());
        await drive(fakeEnv(key), messages);
        const log = await fakeLog(key);
        expect(log.requests.filter((request) => !request.valid)).toEqual([]);
        // Two events of one name for one click are two conversions to Ocean Engine, which has no event id.
        const expected = countsOf(await expectedKeys(destinations, messages));
        for (const [event, count] of expected) expect(log.accepted[event], event).toBe(count);
      }),
      { numRuns: 25 },
    );
    const log = await fakeLog(key);
    expect(new Set(log.requests.map((request) => request.platform))).toEqual(
      new Set(['meta', 'tiktok', 'ga4', 'oceanengine', 'postback']),
    );
  }, 120_000);

  it('sends each (destination, event) once with 30 % of attempts failing with 503 or no answer', async () => {
    const key = freshKey();
    for (const body of everyPlatform(key)) await addDestination(body);
    const destinations = await listDestinations(env.FUNNEL_DB, 'default');
    await fc.assert(
      fc.asyncProperty(fc.array(install, { minLength: 1, maxLength: 4 }), fc.integer(), async (installs, seed) => {
        await setFakeMode(key, { failRate: 0.3, seed });
        const messages = messagesOf(installs, Date.now());
        // Each message twice, as a queue may deliver it: still one delivery each.
        const driven = await drive(fakeEnv(key), [...messages, ...messages], { timeoutMs: 300 });
        const log = await fakeLog(key);
        const dead = new Set(
          driven.dead.map((body) => {
            const { destination, event } = body as { destination: string; event: ConversionEvent };
            return `${destination} ${event.id}`;
          }),
        );
        const expected = countsOf(await expectedKeys(destinations, messages));
        let accepted = 0;
        for (const [event, count] of expected) {
          expect(log.accepted[event] ?? 0, event).toBeLessThanOrEqual(count);
          accepted += log.accepted[event] ?? 0;
        }
        expect(accepted + dead.size).toBe([...expected.values()].reduce((sum, count) => sum + count, 0));
        expect(log.requests.filter((request) => !request.valid)).toEqual([]);
      }),
      { numRuns: 10 },
    );
    const { results } = await env.FUNNEL_DB.prepare(
      "SELECT status, name, attempts FROM conversion_deliveries WHERE status NOT IN ('delivered', 'dead', 'skipped')",
    ).all();
    expect(results).toEqual([]);
  }, 120_000);
});
