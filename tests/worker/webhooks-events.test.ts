/**
 * The events end to end inside workerd (docs/webhooks.md#events): real requests to the links API and
 * to `/api/a/*`, the real queue, fan-out and consumer, and the receiver on 127.0.0.1 verifying each
 * delivery with `standardwebhooks`. `click` goes only to an endpoint that asks for it; nothing
 * personal leaves raw.
 */
import { env, exports } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointView, InstallData, WebhookPayload } from '../../shared/webhooks.ts';
import { DEV_ADMIN_TOKEN } from '../../worker/admin/admin-auth.ts';
import { DEV_DECODE_KEY } from '../../worker/campaign/decode-key.ts';
import { encryptToken } from '../../worker/campaign/token.ts';
import { APP_ID, fakeApp, PHONES, type Send, tap } from '../fixtures/fake-app.ts';
import { ORIGIN } from './helpers.ts';
import { admin, freshKey, receiverEndpoint, receiverLog } from './webhook-fixtures.ts';

const send: Send = (path, body, headers) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );

/** The payloads `key`'s receiver accepted, once `count` have arrived. */
async function arrived(key: string, count: number): Promise<WebhookPayload[]> {
  await expect.poll(async () => (await receiverLog(key)).delivered.length, { timeout: 20_000 }).toBe(count);
  const log = await receiverLog(key);
  expect(log.unverified).toEqual([]);
  return log.delivered as WebhookPayload[];
}

afterEach(async () => {
  const { endpoints } = await (await admin('')).json<{ endpoints: EndpointView[] }>();
  for (const endpoint of endpoints) await admin(`/${endpoint.id}`, { method: 'DELETE' });
});

describe('events', () => {
  it('sends link.created when the links API makes a link', async () => {
    const key = freshKey();
    await receiverEndpoint(key, 'ok', ['link.created']);
    const slug = `wh-${crypto.randomUUID().slice(0, 8)}`;
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/api/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'autumn', slug }),
      }),
    );
    expect(res.status).toBe(201);
    const [payload] = await arrived(key, 1);
    expect(payload).toEqual({
      type: 'link.created',
      timestamp: expect.any(String),
      data: { slug, data: { channel: 'autumn' }, createdAt: expect.any(String), expiresAt: null },
    });
  });

  it('sends a tap, an install, an open and an app event; click only to the endpoint that asks', async () => {
    const everything = freshKey();
    const clicks = freshKey();
    await receiverEndpoint(everything, 'ok');
    await receiverEndpoint(clicks, 'ok', ['click']);
    const address = '10.77.0.5';
    const installId = `install-${crypto.randomUUID()}`;
    const d = encryptToken(JSON.stringify({ channel: 'spring-sale', inviter: 'ann' }), DEV_DECODE_KEY);
    const { body, response } = tap(send, PHONES.iPhone15, address, { d });
    expect((await response).status).toBe(204);
    const app = fakeApp(send, PHONES.iPhone15, address);
    const carrier = `https://lander.test/i/${body.clickId}.${d}`;
    expect((await app.install(installId, { clipboard: carrier })).status).toBe(200);
    expect((await app.open(installId, carrier)).status).toBe(200);
    const event = await send(
      '/api/a/event',
      { app: APP_ID, installId, name: 'register', value: 3 },
      { 'cf-connecting-ip': address },
    );
    expect(event.status).toBe(204);

    const got = await arrived(everything, 3);
    const byType = new Map(got.map((payload) => [payload.type, payload.data]));
    expect([...byType.keys()].sort()).toEqual(['event', 'install', 'open']);
    const install = byType.get('install') as InstallData;
    expect(install).toEqual({
      app: APP_ID,
      platform: 'ios',
      install: expect.stringMatching(/^[\w-]{22}$/),
      matched: true,
      method: 'clipboard',
      confidence: 100,
      campaign: { channel: 'spring-sale', inviter: 'ann' },
      clickedAt: expect.any(String),
      reason: null,
      flags: [],
      country: '',
    });
    expect(byType.get('open')).toMatchObject({ matched: true, install: install.install, platform: null });
    expect(byType.get('event')).toEqual({
      app: APP_ID,
      install: install.install,
      name: 'register',
      value: 3,
      matched: true,
      campaign: { channel: 'spring-sale', inviter: 'ann' },
      country: '',
    });
    const [click] = await arrived(clicks, 1);
    expect(click).toMatchObject({
      type: 'click',
      data: { action: 'download', campaign: { channel: 'spring-sale', inviter: 'ann' }, link: null, os: 'iOS' },
    });
    // Nothing personal leaves raw: no install id, no address, no agent.
    const sent = JSON.stringify([...got, click]);
    for (const personal of [installId, address, PHONES.iPhone15.web.agent]) expect(sent).not.toContain(personal);
    const stored = await env.FUNNEL_DB.prepare('SELECT body FROM webhook_events').all<{ body: string }>();
    expect(JSON.stringify(stored.results)).not.toContain(installId);
  });

  it('sends an unmatched install with its reason', async () => {
    const key = freshKey();
    await receiverEndpoint(key, 'ok', ['install']);
    const response = await fakeApp(send, PHONES.iPhone15, '10.78.0.9').install(`install-${crypto.randomUUID()}`);
    expect(await response.json()).toEqual({ matched: false, reason: 'none' });
    const [payload] = await arrived(key, 1);
    expect(payload?.data).toMatchObject({ matched: false, method: null, confidence: null, reason: 'none', flags: [] });
  });
});
