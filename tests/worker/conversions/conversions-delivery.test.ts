/**
 * Conversions out through the real consumer, D1 and `fetch` (docs/conversions.md#delivery): random
 * installs, opens and app events fanned out to one destination of every platform, each request held
 * by the platforms' fake to its platform's documented schema, with 30 % of requests failing (503 or
 * no answer within the attempt's time). Properties: every request is valid, and every (destination,
 * event) the destination sends is accepted exactly once — or, after every attempt failed, marked dead
 * and never accepted. App events carry random values in random currencies (refunds negative): each
 * platform that was sent one holds it as its document says, to the minor unit.
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { AD_CLICK_PARAM_NAMES } from '../../../shared/ad-clicks.ts';
import { exponentOf, majorText } from '../../../shared/money.ts';
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
/** A value in minor units of a currency of each exponent, renminbi most often; a refund is negative. */
const money = fc.option(
  fc.record({
    currency: fc.constantFrom('CNY', 'CNY', 'USD', 'JPY', 'KWD', 'CLF', 'EUR'),
    amount: fc.oneof(fc.integer({ min: -50_000, max: 5_000_000 }), fc.constant(0), fc.constant(1e12)),
  }),
  { nil: null },
);
const install = fc.record({
  platform: fc.constantFrom('ios' as const, 'android' as const, 'harmony' as const),
  ad,
  events: fc.array(fc.tuple(name, money), { maxLength: 3 }),
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
        ([event, value]): ConversionEvent => ({
          ...common,
          id: idOf(),
          kind: 'event',
          name: event,
          platform: null,
          ...(value ?? {}),
        }),
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
      const query = new URL(request.url).searchParams;
      if (destination.platform === 'oceanengine')
        keys.push(`oceanengine ${body.context.ad.callback}|${body.event_type}`);
      else if (destination.platform === 'kuaishou')
        keys.push(`kuaishou ${query.get('callback')}|${query.get('event_type')}`);
      else if (destination.platform === 'baidu')
        keys.push(`baidu ${body.conversionTypes[0].logidUrl}|${body.conversionTypes[0].newType}`);
      else if (destination.platform === 'postback') keys.push(`postback ${event.id}`);
      else if (destination.platform === 'ga4') keys.push(`ga4 ${event.id}`);
      else keys.push(`${destination.platform} ${event.id}`);
    }
  }
  return keys;
}

/** The major-unit text of an event's value ("9.99"), or undefined without one. */
function textOf(event: ConversionEvent): string | undefined {
  if (event.currency === undefined || event.amount === undefined) return undefined;
  return majorText(event.amount, exponentOf(event.currency) ?? 0);
}

/**
 * Every accepted request's value is its event's, as its platform takes it: the major unit with its
 * code (Meta, TikTok, GA4, Snap, the postback), fen of renminbi (Tencent, Baidu), yuan (Kuaishou);
 * none where the event had none or in a currency the platform does not take; no refund but the postback's.
 */
// biome-ignore lint/suspicious/noExplicitAny: the fake's bodies passed their platforms' schemas
function expectValues(bodies: Record<string, any[]>, events: Map<string, ConversionEvent>): number {
  let checked = 0;
  const check = (id: string, got: { value?: unknown; currency?: unknown } | undefined, as: 'number' | 'text') => {
    const event = events.get(id);
    if (!event) return;
    const text = textOf(event);
    checked += 1;
    if (text === undefined) return expect(got, id).toBeUndefined();
    expect(event.amount ?? 0, id).toBeGreaterThanOrEqual(0);
    expect(got, id).toEqual({ value: as === 'number' ? Number(text) : text, currency: event.currency });
  };
  for (const body of bodies.meta ?? []) check(body.data[0].event_id, body.data[0].custom_data, 'number');
  for (const body of bodies.tiktok ?? []) check(body.data[0].event_id, body.data[0].properties, 'number');
  for (const body of bodies.snap ?? []) check(body.data[0].event_id, body.data[0].custom_data, 'text');
  for (const body of bodies.ga4 ?? []) {
    const { value, currency, lander_event_id: id } = body.events[0].params;
    check(id, value === undefined ? undefined : { value, currency }, 'number');
  }
  for (const body of bodies.postback ?? []) {
    const event = events.get(body.e);
    if (!event) continue;
    checked += 1;
    expect([body.v, body.cur], body.e).toEqual([textOf(event) ?? '', event.currency ?? '']);
  }
  for (const body of bodies.tencent ?? []) {
    const action = body.actions[0];
    const event = events.get(action.outer_action_id);
    if (!event) continue;
    checked += 1;
    expect(event.amount ?? 0).toBeGreaterThanOrEqual(0);
    expect(action.action_param?.value).toBe(event.currency === 'CNY' ? event.amount : undefined);
  }
  for (const body of bodies.baidu ?? []) {
    const value = body.conversionTypes[0].convertValue;
    if (value !== undefined) expect(Number.isInteger(value) && value >= 0).toBe(true);
  }
  for (const body of bodies.kuaishou ?? []) {
    if (body.purchase_amount !== undefined) expect(body.purchase_amount).toMatch(/^\d+\.\d{2}$/);
  }
  return checked;
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
    let valuesChecked = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(install, { minLength: 1, maxLength: 5 }), async (installs) => {
        const messages = messagesOf(installs, Date.now());
        await drive(fakeEnv(key), messages);
        const log = await fakeLog(key);
        expect(log.requests.filter((request) => !request.valid)).toEqual([]);
        // Two events of one name for one click are two conversions to Ocean Engine, which has no event id.
        const expected = countsOf(await expectedKeys(destinations, messages));
        for (const [event, count] of expected) expect(log.accepted[event], event).toBe(count);
        valuesChecked += expectValues(log.bodies, new Map(messages.map(({ event }) => [event.id, event])));
      }),
      { numRuns: 25 },
    );
    expect(valuesChecked).toBeGreaterThan(0);
    const log = await fakeLog(key);
    expect(new Set(log.requests.map((request) => request.platform))).toEqual(
      new Set(['meta', 'tiktok', 'ga4', 'snap', 'oceanengine', 'tencent', 'kuaishou', 'baidu', 'postback']),
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
        // Each message twice, as a queue may deliver it: still one delivery each. An attempt waits 1 s
        // (the fake never answers a "no answer" within 1.5 s), so a slow 200 under load is not a timeout.
        const driven = await drive(fakeEnv(key), [...messages, ...messages], { timeoutMs: 1_000 });
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
