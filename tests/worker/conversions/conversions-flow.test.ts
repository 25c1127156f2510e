/**
 * Conversions end to end inside workerd (docs/conversions.md): a tap from an ad with its click ids,
 * the app's install and events through `/api/a/*`, the real conversion queue and consumer, and a
 * postback destination on the platforms' fake. The ad click travels with the tap's carrier to the
 * install; consent that stops sends to third parties stops them all.
 */
import { env, exports } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { carrierOf } from '../../../shared/attribution.ts';
import { forgetOld } from '../../../worker/exports/forget-old.ts';
import { clickBody, installBody, issuedClickId, PHONES, type Send } from '../../fixtures/fake-app.ts';
import { ORIGIN } from '../helpers.ts';
import { addDestination, FAKE, fakeLog, freshKey, removeDestinations } from './conversion-fixtures.ts';

const APP = 'com.pebble.notes';
const DAY = 86_400_000;
const phone = PHONES.iPhone15;

const send: Send = (path, body, headers) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );

let last = 20;
/** A fresh network address per test: the rate limits and buckets never meet. */
function freshAddress(): string {
  last += 1;
  return `198.51.${last % 250}.${Math.floor(Math.random() * 250) + 1}`;
}

/** A tap on the page with `ad` from `address`, then the install that carries its click; answers the install id. */
async function adTapThenInstall(
  ad: Record<string, string> | undefined,
  {
    tapHeaders = {},
    installHeaders = {},
  }: { tapHeaders?: Record<string, string>; installHeaders?: Record<string, string> } = {},
): Promise<string> {
  const address = freshAddress();
  const clickId = await issuedClickId((path) =>
    exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers: { 'cf-connecting-ip': address } })),
  );
  const tap = await send(
    '/api/a/click',
    { ...clickBody(phone, { clickId }), ...(ad ? { ad } : {}) },
    { 'cf-connecting-ip': address, 'user-agent': phone.web.agent, ...tapHeaders },
  );
  expect(tap.status).toBe(204);
  const installId = `install-${crypto.randomUUID()}`;
  const headers = { 'cf-connecting-ip': address, 'user-agent': 'PebbleNotes/2.4', ...installHeaders };
  const install = await send(
    '/api/a/install',
    installBody(phone, installId, { clipboard: carrierOf(clickId) }),
    headers,
  );
  expect(await install.json()).toMatchObject({ matched: true, method: 'clipboard' });
  return installId;
}

async function postbackTo(key: string): Promise<void> {
  await addDestination({
    platform: 'postback',
    settings: { url: `${FAKE}/${key}/postback/hit?e={event_id}&n={event}&c={fbclid}&oe={clickid}&i={install}` },
  });
}

type Hit = Record<string, string>;

afterEach(removeDestinations);

describe('conversions of an ad click', () => {
  it('sends a matched install with the ad click ids its tap carried, then its app events', async () => {
    const key = freshKey();
    await postbackTo(key);
    const installId = await adTapThenInstall({ fbclid: 'IwAR0-ad-click', clickid: 'B.oe-123' });
    const event = await send(
      '/api/a/event',
      { app: APP, installId, name: 'register', id: 'register-0001' },
      { 'cf-connecting-ip': '203.0.113.9' },
    );
    expect(event.status).toBe(204);
    await expect.poll(async () => ((await fakeLog(key)).bodies.postback ?? []).length, { timeout: 20_000 }).toBe(2);
    const hits = (await fakeLog(key)).bodies.postback as Hit[];
    const install = hits.find((hit) => hit.n === 'install');
    const register = hits.find((hit) => hit.n === 'register');
    expect(install).toMatchObject({ c: 'IwAR0-ad-click', oe: 'B.oe-123' });
    expect(register).toMatchObject({ c: 'IwAR0-ad-click', i: install?.i });
    // The install travels as its keyed hash, never the app's own id.
    expect(JSON.stringify(hits)).not.toContain(installId);
  });

  it('sends an app event the app sent days late with the time it happened', async () => {
    const key = freshKey();
    const destination = await addDestination({
      platform: 'postback',
      settings: { url: `${FAKE}/${key}/postback/hit?n={event}&t={timestamp_ms}` },
    });
    const installId = await adTapThenInstall({ fbclid: 'IwAR0-late-event' });
    const sent = Date.now();
    const happened = { purchase: sent - 2 * DAY, register: sent - 29.5 * DAY };
    const event = await send(
      '/api/a/event',
      {
        app: APP,
        installId,
        events: [
          { name: 'purchase', id: 'purchase-late-01', at: happened.purchase },
          { name: 'register', id: 'register-late-01', at: happened.register },
        ],
      },
      { 'cf-connecting-ip': '203.0.113.9' },
    );
    expect(event.status).toBe(204);
    await expect.poll(async () => ((await fakeLog(key)).bodies.postback ?? []).length, { timeout: 20_000 }).toBe(3);
    const hits = (await fakeLog(key)).bodies.postback as Hit[];
    expect(hits.find((hit) => hit.n === 'purchase')?.t).toBe(String(happened.purchase));
    expect(hits.find((hit) => hit.n === 'register')?.t).toBe(String(happened.register));
    // The deliveries are kept by when the events arrived: tomorrow's sweep leaves the 29-day-old one.
    await forgetOld(env, Date.now() + DAY);
    const kept = await env.FUNNEL_DB.prepare(
      "SELECT at FROM conversion_deliveries WHERE destination_id = ?1 AND name IN ('purchase', 'register')",
    )
      .bind(destination.id)
      .all<{ at: number }>();
    expect(kept.results).toHaveLength(2);
    for (const row of kept.results) expect(row.at).toBeGreaterThanOrEqual(sent);
  });

  it('sends nothing for an install whose consent stops sends to third parties, nor for its events', async () => {
    const key = freshKey();
    await postbackTo(key);
    const installId = await adTapThenInstall({ fbclid: 'IwAR0-refused' }, { installHeaders: { 'sec-gpc': '1' } });
    const event = await send(
      '/api/a/event',
      { app: APP, installId, name: 'purchase', id: 'purchase-0001' },
      { 'cf-connecting-ip': '203.0.113.9' },
    );
    expect(event.status).toBe(204);
    // A later install that is allowed arrives: everything queued before it has been handled by then.
    await adTapThenInstall({ fbclid: 'IwAR0-allowed' });
    await expect
      .poll(async () => ((await fakeLog(key)).bodies.postback as Hit[] | undefined)?.map((hit) => hit.c), {
        timeout: 20_000,
      })
      .toEqual(['IwAR0-allowed']);
  });

  it('sends nothing more of an install once the app withdraws its consent with an event or an open', async () => {
    for (const withdrawal of ['event', 'open'] as const) {
      const key = freshKey();
      await postbackTo(key);
      const installId = await adTapThenInstall({ fbclid: `IwAR0-${withdrawal}-allowed` });
      const event = (name: string, extra: Record<string, unknown> = {}) =>
        send(
          '/api/a/event',
          { app: APP, installId, name, id: `${name}-${withdrawal}-01`, ...extra },
          { 'cf-connecting-ip': '203.0.113.9' },
        );
      expect((await event('register')).status).toBe(204);
      await expect
        .poll(async () => ((await fakeLog(key)).bodies.postback as Hit[] | undefined)?.map((hit) => hit.n).sort(), {
          timeout: 20_000,
        })
        .toEqual(['install', 'register']);
      // The person says no in the app: its consent goes with the next call, which is not sent.
      const withdrawn =
        withdrawal === 'event'
          ? await event('purchase', { consent: { tracking: false } })
          : await send(
              '/api/a/open',
              { app: APP, installId, carrier: 'https://get.pebble-notes.example/?nothing', consent: { att: 'denied' } },
              { 'cf-connecting-ip': '203.0.113.9' },
            );
      expect(withdrawn.status).toBeLessThan(300);
      // Nor is anything after it, consent or none.
      expect((await event('level_up')).status).toBe(204);
      await adTapThenInstall({ fbclid: `IwAR0-${withdrawal}-later` });
      await expect
        .poll(async () => ((await fakeLog(key)).bodies.postback as Hit[] | undefined)?.map((hit) => hit.c), {
          timeout: 20_000,
        })
        .toContain(`IwAR0-${withdrawal}-later`);
      const names = ((await fakeLog(key)).bodies.postback as Hit[]).map((hit) => hit.n).sort();
      expect(names).toEqual(['install', 'install', 'register']);
    }
  });

  it.each([
    ['an event', '/api/a/event', { name: 'purchase' }, { att: 'maybe' }, 'consent.att'],
    [
      'an event batch',
      '/api/a/event',
      { events: [{ id: 'purchase-batch-1', name: 'purchase' }] },
      { other: 1 },
      'consent.other',
    ],
    [
      'an open',
      '/api/a/open',
      { carrier: 'https://get.pebble-notes.example/?x' },
      { tcf: 'x'.repeat(4097) },
      'consent.tcf',
    ],
  ])('refuses %s whose consent is malformed, naming the field', async (_, path, fields, consent, field) => {
    const body = { app: APP, installId: `install-${crypto.randomUUID()}`, ...fields, consent };
    const response = await send(path, body, { 'cf-connecting-ip': '203.0.113.9' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringContaining(field) });
  });

  it('keeps no ad click of a tap whose consent stops sends to third parties', async () => {
    const key = freshKey();
    await postbackTo(key);
    await adTapThenInstall({ fbclid: 'IwAR0-tap-refused' }, { tapHeaders: { 'sec-gpc': '1' } });
    await expect.poll(async () => ((await fakeLog(key)).bodies.postback ?? []).length, { timeout: 20_000 }).toBe(1);
    const [hit] = (await fakeLog(key)).bodies.postback as Hit[];
    expect(hit).toMatchObject({ n: 'install', c: '' });
  });

  it('refuses an ad click parameter it does not know, naming it', async () => {
    const response = await send(
      '/api/a/click',
      { ...clickBody(phone), ad: { utm_source: 'x' } },
      { 'cf-connecting-ip': freshAddress(), 'user-agent': phone.web.agent },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringContaining('utm_source') });
  });
});
