/**
 * The rate limits of `/api/a/*` (docs/attribution.md, "Rate limits") through the real worker and the
 * Rate Limiting bindings as the runtime emulates them: one client over its budget is refused, a
 * crowd behind one address is not, a client rotating its ids meets its network's ceiling, the taps'
 * and the app's budgets are apart, and every address of one IPv6 /64 shares its budgets.
 *
 * The limiter's counts are shared by every file the runtime runs, so each test uses networks no other
 * test uses; its windows are the clock's minutes, so a test that counts up to a refusal starts in a
 * window with time enough left.
 */

import { exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_POLICY, NETWORK_POLICY } from '../../../worker/attribution/rate-limit.ts';
import { BUSY_NETWORK_INSTALLS } from '../../../worker/fraud/busy-network.ts';
import { clickBody, installBody, PHONES } from '../../fixtures/fake-app.ts';
import { expectConforms } from '../conforms.ts';
import { flagsOf } from '../fraud-fixtures.ts';
import { ORIGIN } from '../helpers.ts';

const APP_AGENT = 'PebbleNotes/2.4 CFNetwork/1490.0.4 Darwin/23.5.0';

function send(path: string, body: unknown, address: string, userAgent = PHONES.iPhone15.web.agent) {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': address, 'user-agent': userAgent },
    }),
  );
}

/**
 * The statuses of `count` calls made by `make(i)`, in order, `inFlight` at a time (one after another
 * by default): thousands made at once from the test's one context failed inside the test runtime
 * ("Promise will never complete").
 */
async function statuses(count: number, make: (i: number) => Promise<Response>, inFlight = 1): Promise<number[]> {
  const out: number[] = [];
  for (let first = 0; first < count; first += inFlight) {
    const batch = Array.from({ length: Math.min(inFlight, count - first) }, async (_, at) => {
      const res = await make(first + at);
      await res.arrayBuffer();
      return res.status;
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

const refusals = (list: number[]) => list.filter((status) => status === 429).length;

/** Waits for the next minute when fewer than `ms` are left in this one: the limiter counts per clock minute. */
async function windowWithRoom(ms: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

const minute = (): number => Math.floor(Date.now() / 60_000);

/**
 * `run(attempt)` inside one clock minute: started with `room` left in it, and run once more (its
 * attempt 1, on networks of its own) in a fresh minute when a slow machine took it past the minute's end.
 */
async function inOneMinute<T>(room: number, run: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    await windowWithRoom(room);
    const started = minute();
    const result = await run(attempt);
    if (minute() === started || attempt === 1) return result;
  }
}

describe('one client', () => {
  it(`is refused its tap past ${CLIENT_POLICY.limit} a minute, with the RateLimit fields and Retry-After`, async () => {
    await windowWithRoom(20_000);
    const address = '198.51.100.7';
    const taps = await statuses(CLIENT_POLICY.limit, () =>
      send('/api/a/click', clickBody(PHONES.iPhone15, { visitorId: 'one-busy-visitor' }), address),
    );
    expect(taps.every((status) => status === 204)).toBe(true);
    const over = await send('/api/a/click', clickBody(PHONES.iPhone15, { visitorId: 'one-busy-visitor' }), address);
    expect(over.status).toBe(429);
    expect(over.headers.get('ratelimit-policy')).toBe('"client";q=60;w=60, "network";q=3000;w=60');
    const wait = Number(over.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(over.headers.get('ratelimit')).toBe(`"client";r=0;t=${wait}`);
    expect(await expectConforms(over, '/api/a/click')).toEqual({
      error: `Too many requests from this device; try again in ${wait} s`,
    });
    // Another visitor on the same address is not held by it.
    const neighbour = await send('/api/a/click', clickBody(PHONES.iPhone15, { visitorId: 'its-neighbour' }), address);
    expect(neighbour.status).toBe(204);
  });

  it('without a visitor id is one client by its device: the same phone is held, another phone is not', async () => {
    await windowWithRoom(20_000);
    const address = '198.51.101.7';
    const same = await statuses(CLIENT_POLICY.limit + 1, () =>
      send('/api/a/click', { visitorId: '', screen: { w: 1, h: 1, dpr: 1 } }, address),
    );
    expect(same.slice(0, CLIENT_POLICY.limit).every((status) => status === 400)).toBe(true);
    expect(same[CLIENT_POLICY.limit]).toBe(429);
    const other = await send('/api/a/click', { screen: { w: 2, h: 1, dpr: 1 } }, address);
    expect(other.status).toBe(400);
  });

  it("one install's app calls are held apart from its network's other installs", async () => {
    await windowWithRoom(20_000);
    const address = '198.51.102.7';
    const calls = await statuses(CLIENT_POLICY.limit + 1, () =>
      send('/api/a/event', { app: 'com.pebble.notes', installId: 'chatty-install', name: 1 }, address, APP_AGENT),
    );
    expect(refusals(calls)).toBe(1);
    expect(calls[CLIENT_POLICY.limit]).toBe(429);
    const other = await send('/api/a/install', installBody(PHONES.iPhone15, 'quiet-install-1'), address, APP_AGENT);
    expect(other.status).toBe(200);
  });
});

describe('a crowd behind one address', () => {
  it('600 devices each tap, then install: none refused', { timeout: 120_000 }, async () => {
    const address = '198.51.110.1';
    const phones = Object.values(PHONES);
    const phone = (i: number) => phones[i % phones.length] ?? PHONES.iPhone15;
    const taps = await statuses(
      600,
      (i) => send('/api/a/click', clickBody(phone(i), { visitorId: `crowd-${i}` }), address, phone(i).web.agent),
      10,
    );
    expect(refusals(taps)).toBe(0);
    expect(new Set(taps)).toEqual(new Set([204]));
    const installs = await statuses(
      600,
      (i) => send('/api/a/install', installBody(phone(i), `crowd-install-${i}`), address, APP_AGENT),
      10,
    );
    expect(refusals(installs)).toBe(0);
    expect(new Set(installs)).toEqual(new Set([200]));
  });
});

describe("a network's ceiling", () => {
  it(`holds a client rotating its visitor ids at ${NETWORK_POLICY.limit} taps a minute, and not the network's app calls`, {
    timeout: 180_000,
  }, async () => {
    const { address, rotating, over } = await inOneMinute(30_000, async (attempt) => {
      const address = `198.51.120.${9 + attempt}`;
      // Bodies the route refuses (400): each still spends the budgets, and costs the test little. Ten
      // in flight: the budget is the minute's, whatever the order within it.
      const rotating = await statuses(
        NETWORK_POLICY.limit,
        (i) => send('/api/a/click', { visitorId: `rotated-${i}` }, address),
        10,
      );
      return { address, rotating, over: await send('/api/a/click', { visitorId: 'one-more' }, address) };
    });
    expect(refusals(rotating)).toBe(0);
    expect(over.status).toBe(429);
    expect(over.headers.get('ratelimit')).toMatch(/^"network";r=0;t=\d+$/);
    expect(await over.json()).toEqual({ error: expect.stringContaining('from this network') });
    const install = await send('/api/a/install', installBody(PHONES.iPhone15, 'after-rotation'), address, APP_AGENT);
    expect(install.status).toBe(200);
  });
});

describe('IPv6', () => {
  const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
  const interfaceId = fc.tuple(group, group, group, group).map((groups) => groups.join(':'));

  it('every address of one /64 shares one budget; the next /64 has its own', async () => {
    let network = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(interfaceId, { minLength: CLIENT_POLICY.limit + 1, maxLength: CLIENT_POLICY.limit + 1 }),
        async (ids) => {
          await windowWithRoom(20_000);
          network += 1;
          const prefix = `2001:db8:64:${network.toString(16)}`;
          const calls = await statuses(ids.length, (i) =>
            send('/api/a/click', { visitorId: 'wanders-its-64' }, `${prefix}:${ids[i]}`),
          );
          expect(calls.slice(0, CLIENT_POLICY.limit).every((status) => status === 400)).toBe(true);
          expect(calls[CLIENT_POLICY.limit]).toBe(429);
          const next = await send(
            '/api/a/click',
            { visitorId: 'wanders-its-64' },
            `2001:db8:65:${network.toString(16)}::1`,
          );
          expect(next.status).toBe(400);
        },
      ),
      { numRuns: 4 },
    );
  });
});

describe('a busy network', () => {
  it(`flags its installs past ${BUSY_NETWORK_INSTALLS} a minute busy_network and answers every one`, {
    timeout: 120_000,
  }, async () => {
    const { ids, installs } = await inOneMinute(20_000, async (attempt) => {
      const address = `198.51.130.${4 + attempt}`;
      const ids = Array.from({ length: BUSY_NETWORK_INSTALLS + 1 }, (_, i) => `busy-net-${i}-${crypto.randomUUID()}`);
      const installs = await statuses(
        ids.length,
        (i) => send('/api/a/install', installBody(PHONES.iPhone15, ids[i] ?? ''), address, APP_AGENT),
        10,
      );
      return { ids, installs };
    });
    expect(new Set(installs)).toEqual(new Set([200]));
    let busy = 0;
    for (const id of ids) if ((await flagsOf(id)).includes('busy_network')) busy += 1;
    expect(busy).toBe(1);
  });
});
