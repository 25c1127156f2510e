/**
 * The events end to end inside workerd (docs/webhooks.md#events): real requests to the links API and
 * to `/api/a/*`, the real queue, fan-out and consumer, and the receiver on 127.0.0.1 verifying each
 * delivery with `standardwebhooks`. `click` goes only to an endpoint that asks for it; nothing
 * personal leaves raw.
 */

import { env, exports } from 'cloudflare:workers';
import { Validator } from '@cfworker/json-schema';
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointView, InstallData, WebhookPayload } from '../../../shared/webhooks.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_ADMIN_TOKEN, DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { APP_ID, fakeApp, PHONES, type Send, tap } from '../../fixtures/fake-app.ts';
import { servedDocument } from '../conforms.ts';
import { ORIGIN } from '../helpers.ts';
import { admin, freshKey, receiverEndpoint, receiverLog } from '../webhook-fixtures.ts';

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
  // Every body is what the OpenAPI document's webhooks section says it is (docs/api.md).
  const { webhooks } = (await servedDocument()) as unknown as {
    webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>;
  };
  for (const payload of log.delivered as WebhookPayload[]) {
    const schema = webhooks[payload.type]?.post.requestBody.content['application/json']?.schema ?? {};
    expect(new Validator(schema, '2020-12', false).validate(payload).errors, payload.type).toEqual([]);
  }
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
      // Launched milliseconds after its tap: below the 10 s floor (docs/fraud.md).
      flags: ['too_fast'],
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

  it("sends an app event's currency beside its value, as the app sent it (docs/operators.md#revenue)", async () => {
    const key = freshKey();
    await receiverEndpoint(key, 'ok', ['event']);
    const address = '10.78.0.12';
    const installId = `install-${crypto.randomUUID()}`;
    expect((await fakeApp(send, PHONES.iPhone15, address).install(installId)).status).toBe(200);
    const event = await send(
      '/api/a/event',
      { app: APP_ID, installId, name: 'refund', value: -9.99, currency: 'USD' },
      { 'cf-connecting-ip': address },
    );
    expect(event.status).toBe(204);
    const [payload] = await arrived(key, 1);
    expect(payload?.data).toMatchObject({ name: 'refund', value: -9.99, currency: 'USD' });
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

describe('link changes', () => {
  const call = (method: string, path: string, body?: unknown) =>
    exports.default.fetch(
      new Request(`${ORIGIN}/api/links${path}`, {
        method,
        headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );

  it('sends link.updated when its expiry moves and link.deleted when it goes', async () => {
    const key = freshKey();
    await receiverEndpoint(key, 'ok', ['link.updated', 'link.deleted']);
    const slug = `wh-${crypto.randomUUID().slice(0, 8)}`;
    expect((await call('POST', '', { channel: 'winter', slug })).status).toBe(201);
    const expiresAt = '2030-01-01T00:00:00.000Z';
    const changed = await call('PATCH', `/${slug}`, { expiresAt });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ slug, expiresAt });
    expect((await call('DELETE', `/${slug}`)).status).toBe(204);
    expect((await exports.default.fetch(new Request(`${ORIGIN}/s/${slug}.svg`))).status).toBe(404);
    const got = await arrived(key, 2);
    expect(got.map((payload) => [payload.type, payload.data])).toEqual([
      ['link.updated', expect.objectContaining({ slug, data: { channel: 'winter' }, expiresAt })],
      ['link.deleted', expect.objectContaining({ slug, data: { channel: 'winter' } })],
    ]);
  });

  it('refuses an unknown slug, an expiry in the past and other fields, changing nothing', async () => {
    const slug = `wh-${crypto.randomUUID().slice(0, 8)}`;
    expect((await call('POST', '', { channel: 'spring', slug })).status).toBe(201);
    expect(await (await call('PATCH', '/no-such-link', { expiresAt: null })).json()).toEqual({
      error: 'slug: no such link',
    });
    expect((await call('DELETE', '/no-such-link')).status).toBe(404);
    const past = await call('PATCH', `/${slug}`, { expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(await past.json()).toEqual({ error: 'expiresAt is in the past' });
    expect((await call('PATCH', `/${slug}`, { channel: 'other' })).status).toBe(400);
    expect((await exports.default.fetch(new Request(`${ORIGIN}/s/${slug}.svg`))).status).toBe(200);
    const cleared = await call('PATCH', `/${slug}`, { expiresAt: null });
    expect(await cleared.json()).toMatchObject({ slug, expiresAt: null });
  });
});
