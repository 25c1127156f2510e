/**
 * The `/api/a/*` contract (docs/attribution.md): what a bad body, a large body, a busy network or a
 * missing salt gets, and what is — and is never — stored.
 */

import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClickBucket } from '../../../worker/attribution/click-bucket.ts';
import type { AttributionLedger } from '../../../worker/attribution/ledger.ts';
import { ledgerFor } from '../../../worker/attribution/ledger.ts';
import { networkOf } from '../../../worker/attribution/network.ts';
import { CLIENT_POLICY } from '../../../worker/attribution/rate-limit.ts';
import { UA } from '../../fixtures/agents.ts';
import { DEMO } from '../../fixtures/config.ts';
import { clickBody, installBody, newClickId, PHONES } from '../../fixtures/fake-app.ts';
import { bucketOf, inBucket, rowsOf } from '../attribution-storage.ts';
import { expectConforms } from '../conforms.ts';
import { clearConfig, fetchWorker, ORIGIN, storeConfig } from '../helpers.ts';

function send(path: string, body: unknown, address = '192.0.2.10', userAgent = UA.iPhoneSafari) {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': address, 'user-agent': userAgent },
    }),
  );
}

/** `send`, with the answer checked against the OpenAPI document (conforms.ts). */
async function post(path: string, body: unknown, address?: string, userAgent?: string) {
  const res = await send(path, body, address, userAgent);
  await expectConforms(res, path);
  return res;
}

/** Whether the click index knows `clickId`. */
const indexed = (clickId: string) => ledgerFor(env, 'default', clickId).lookupClick(clickId);

describe('POST /api/a/click', () => {
  it('answers 204 with no body and records the click', async () => {
    const body = clickBody(PHONES.iPhone15);
    const res = await post('/api/a/click', body);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await indexed(body.clickId)).toMatchObject({ at: expect.any(Number) });
  });

  it('takes the text/plain body navigator.sendBeacon sends', async () => {
    const body = clickBody(PHONES.iPhone15);
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/api/a/click`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          'cf-connecting-ip': '192.0.2.11',
          'user-agent': UA.iPhoneSafari,
        },
      }),
    );
    expect(res.status).toBe(204);
    expect(await indexed(body.clickId)).not.toBeNull();
  });

  it.each([
    ['not JSON', '{"clickId":', 'body must be JSON'],
    ['a short click id', { ...clickBody(PHONES.iPhone15), clickId: 'abc' }, 'clickId: must be 22 characters'],
    [
      'an unknown action',
      { ...clickBody(PHONES.iPhone15), action: 'buy' },
      'action: must be one of download, store, open, guide',
    ],
    ['no screen', { ...clickBody(PHONES.iPhone15), screen: undefined }, 'screen'],
    ['a time zone that is no zone', { ...clickBody(PHONES.iPhone15), tz: '<script>' }, 'tz: must be an IANA time zone'],
    ['no languages', { ...clickBody(PHONES.iPhone15), langs: [] }, 'langs: needs at least one language'],
    ['an unknown field', { ...clickBody(PHONES.iPhone15), extra: 1 }, 'extra'],
  ])('answers 400 with a message for %s, recording nothing', async (_, body, message) => {
    const res = await post('/api/a/click', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(message);
    if (typeof body === 'object' && typeof body.clickId === 'string' && body.clickId.length === 22) {
      expect(await indexed(body.clickId)).toBeNull();
    }
  });

  it('never records a crawler', async () => {
    const body = clickBody(PHONES.iPhone15);
    expect((await post('/api/a/click', body, '192.0.2.12', UA.googlebot)).status).toBe(204);
    expect(await indexed(body.clickId)).toBeNull();
  });

  it('answers 413 to a body over 20 KiB (12 KiB and room for two consent strings)', async () => {
    const body = { ...clickBody(PHONES.iPhone15), d: 'x'.repeat(21_000) };
    const res = await post('/api/a/click', body);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'Body larger than 20480 bytes' });
  });

  it('takes a batch of 50 events of the longest fields with two consent strings of the longest', async () => {
    const consent = { tcf: 'C'.repeat(4096), gpp: 'D'.repeat(4096), tracking: true, att: 'authorized' };
    const events = Array.from({ length: 50 }, (_, at) => ({
      id: `event-${String(at).padStart(2, '0')}-${'x'.repeat(47)}`,
      name: `n${'a'.repeat(39)}`,
      value: -999999999.99,
      currency: 'USD',
      at: Date.now() - 1000,
    }));
    const body = { app: 'com.pebble.notes', installId: `install-${crypto.randomUUID()}`, consent, events };
    expect(JSON.stringify(body).length).toBeGreaterThan(15_000);
    const res = await post('/api/a/event', body);
    expect(res.status, await res.clone().text()).toBe(204);
  });

  it('is POST only', async () => {
    const res = await exports.default.fetch(new Request(`${ORIGIN}/api/a/click`));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('POST /api/a/open', () => {
  it('answers 400 for an app that is not configured', async () => {
    const res = await post('/api/a/open', { app: 'com.other.app', installId: 'install-0006', carrier: newClickId() });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'app: "com.other.app" is not a configured app' });
  });
});

describe('POST /api/a/install', () => {
  it('answers 400 for an app that is not configured', async () => {
    const res = await post('/api/a/install', { ...installBody(PHONES.iPhone15, 'install-0001'), app: 'com.other.app' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'app: "com.other.app" is not a configured app' });
  });

  it.each([
    ['an unknown platform', { platform: 'symbian' }, 'platform: must be one of ios, android, harmony'],
    ['a short install id', { installId: 'x' }, 'installId: must be 8–128 characters'],
    ['a version that is no version', { osVersion: 'latest' }, 'osVersion: must be a version'],
    ['a screen in the millions', { screen: { w: 1e7, h: 1, scale: 3 } }, 'screen.w'],
  ])('answers 400 with a message for %s', async (_, change, message) => {
    const res = await post('/api/a/install', { ...installBody(PHONES.iPhone15, 'install-0002'), ...change });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(message);
  });

  it('answers the Android package as well as the iOS bundle id', async () => {
    const res = await post(
      '/api/a/install',
      installBody(PHONES.galaxyS23, 'install-0003', undefined, 'com.pebble.notes'),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ matched: false, reason: 'none' });
  });

  it('is never stored in a cache', async () => {
    const res = await post('/api/a/install', installBody(PHONES.iPhone15, 'install-0004'));
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('abuse', () => {
  it('rate-limits one client with 429 and leaves the next network alone (rate-limits.test.ts has the rest)', async () => {
    // A network no other test file uses: the limiter's counts are shared by every file the runtime runs.
    let limitedAt = 0;
    for (let i = 1; i <= 100 && !limitedAt; i++) {
      // Unchecked: the calls must fit in the limiter's minute. One client: no install id, one device.
      const res = await send('/api/a/install', { app: 'x' }, `2001:db8:429:1::${i.toString(16)}`);
      if (res.status === 429) limitedAt = i;
    }
    expect(limitedAt).toBeGreaterThan(CLIENT_POLICY.limit);
    expect(limitedAt).toBeLessThanOrEqual(CLIENT_POLICY.limit + 1);
    await expectConforms(await send('/api/a/install', { app: 'x' }, '2001:db8:429:1::1'), '/api/a/install');
    const nextNetwork = await post('/api/a/install', installBody(PHONES.iPhone15, 'install-0005'), '2001:db8:429:2::1');
    expect(nextNetwork.status).toBe(200);
  });

  it('answers 503 in production without ATTRIBUTION_SALT, and the configured page still renders', async () => {
    const production = { ...env, LANDER_ENV: 'production', ATTRIBUTION_SALT: undefined };
    const res = await fetchWorker(`${ORIGIN}/api/a/click`, { method: 'POST', body: '{}' }, production);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'Attribution is not configured (ATTRIBUTION_SALT)' });
    await storeConfig(DEMO);
    const page = await fetchWorker(`${ORIGIN}/`, { headers: { 'user-agent': UA.iPhoneSafari } }, production);
    await clearConfig();
    expect(page.status).toBe(200);
  });
});

/** Everything the network's bucket and the click's ledger shard hold, as one string. */
async function stored(address: string, clickId: string): Promise<string> {
  const bucket = await bucketOf(address);
  const shard = ledgerFor(env, 'default', clickId);
  const clicks = { clicks: await rowsOf(bucket, 'clicks'), claims: await rowsOf(bucket, 'claims') };
  const ledger = { clicks: await rowsOf(shard, 'clicks'), answers: await rowsOf(shard, 'answers') };
  return JSON.stringify({ clicks, ledger });
}

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 })).map((p) => p.join('.'));
const ipv6 = fc
  .array(fc.integer({ min: 0x1000, max: 0xffff }), { minLength: 8, maxLength: 8 })
  .map((groups) => groups.map((g) => g.toString(16)).join(':'));

describe('clean-up', () => {
  it("the bucket's alarm deletes clicks twice the window old and keeps younger ones", async () => {
    const address = '198.18.77.1';
    const old = clickBody(PHONES.iPhone15);
    const young = clickBody(PHONES.iPhone15);
    await post('/api/a/click', old, address);
    await post('/api/a/click', young, address);
    await inBucket(address, 'UPDATE clicks SET keep_until = 0 WHERE click_id = ?', old.clickId);
    const stub = await bucketOf(address);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const left = (await rowsOf(stub, 'clicks')).map((c) => c.click_id);
    expect(left).toEqual([young.clickId]);
    // The next alarm is set for the younger click's end.
    expect(await runInDurableObject(stub, (_: ClickBucket, state) => state.storage.getAlarm())).toBeGreaterThan(
      Date.now(),
    );
  });

  it("the ledger's alarm deletes install answers past their 30 days", async () => {
    const body = installBody(PHONES.iPhone15, `sweep-${newClickId()}`);
    await post('/api/a/install', body, '198.18.78.1');
    const shards = await Promise.all(
      [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].map((c) => ledgerFor(env, 'default', c)),
    );
    let swept = 0;
    for (const stub of shards) {
      const answers = await runInDurableObject(stub, (_: AttributionLedger, state) => {
        state.storage.sql.exec('UPDATE answers SET keep_until = 0');
        return state.storage.sql.exec('SELECT COUNT(*) AS n FROM answers').one().n as number;
      });
      if (answers === 0) continue;
      await runDurableObjectAlarm(stub);
      swept += answers;
      expect(await rowsOf(stub, 'answers')).toEqual([]);
    }
    expect(swept).toBeGreaterThan(0);
  });
});

describe('properties', () => {
  it('nothing stored contains the raw address, its network, the agent or the visitor id', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(ipv4, ipv6), fc.uuid(), async (address, visitorId) => {
        const body = clickBody(PHONES.galaxyS23, { visitorId });
        expect((await post('/api/a/click', body, address, PHONES.galaxyS23.web.agent)).status).toBe(204);
        const text = await stored(address, body.clickId);
        expect(text).toContain(body.clickId);
        const network = networkOf(address);
        for (const secret of [address, network?.prefix.slice(2), visitorId, 'SM-S911B Build', 'Chrome/131']) {
          if (secret) expect(text).not.toContain(secret);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('never matches across OS families or networks', async () => {
    const phones = Object.values(PHONES);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...phones),
        fc.constantFrom(...phones),
        fc.integer({ min: 0, max: 250 }),
        fc.boolean(),
        async (clicker, installer, subnet, sameNetwork) => {
          const a = `172.16.${subnet}.7`;
          const b = sameNetwork ? `172.16.${subnet}.8` : `172.17.${subnet}.8`;
          const click = clickBody(clicker);
          await post('/api/a/click', click, a, clicker.web.agent);
          const res = await post('/api/a/install', installBody(installer, `prop-${newClickId()}`), b);
          const answer = (await res.json()) as { matched: boolean; clickId?: string };
          if (answer.matched && answer.clickId === click.clickId) {
            expect(sameNetwork).toBe(true);
            expect(installer.app.platform).toBe(clicker === PHONES.nova9Harmony4 ? 'android' : clicker.app.platform);
          }
          // Leave nothing for the next run on this network.
          if (!answer.matched) await post('/api/a/install', installBody(clicker, `drain-${newClickId()}`), a);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('never matches a click older than the window', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 22 }), fc.integer({ min: 0, max: 250 }), async (hoursOver, subnet) => {
        const address = `172.20.${subnet}.9`;
        const click = clickBody(PHONES.iPhone15);
        await post('/api/a/click', click, address);
        const ageMs = (2 + hoursOver) * 60 * 60 * 1000;
        await inBucket(address, 'UPDATE clicks SET at = at - ? WHERE click_id = ?', ageMs, click.clickId);
        const res = await post('/api/a/install', installBody(PHONES.iPhone15, `old-${newClickId()}`), address);
        const answer = (await res.json()) as { matched: boolean; clickId?: string };
        expect(answer.matched && answer.clickId === click.clickId).toBe(false);
      }),
      { numRuns: 25 },
    );
  });
});
