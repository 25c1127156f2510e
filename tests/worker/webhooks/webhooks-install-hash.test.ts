/**
 * The app's backend joins a webhook to its user by the install id (docs/webhooks.md#joining-an-install-to-a-user):
 * computed the documented way — HMAC-SHA-256 under the app's install key (`GET
 * /api/webhooks/install-key`, `webhooks:write`) of `webhook-install\0<app>\0<installId>`, its first
 * 16 bytes in URL-safe base64 — from the install id the SDK's `installId()` gives, the hash equals
 * the `install` of the real `install` webhook. The key is not the attribution salt, differs per app,
 * and is refused to a caller who may only read webhooks.
 */

import { env, exports } from 'cloudflare:workers';
import { createHmac } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import type { EndpointView, InstallData, WebhookPayload } from '../../../shared/webhooks.ts';
import { DEV_ATTRIBUTION_SALT } from '../../../worker/settings.ts';
import { installJoinKey } from '../../../worker/webhooks/send-facts.ts';
import { APP_ID, fakeApp, PHONES, type Send } from '../../fixtures/fake-app.ts';
import { ORIGIN } from '../helpers.ts';
import { teamWorker } from '../team/team-fixtures.ts';
import { admin, freshKey, receiverEndpoint, receiverLog } from '../webhook-fixtures.ts';

const send: Send = (path, body, headers) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );

/** The documented computation, as a Node backend writes it. */
const installHash = (installKey: string, app: string, installId: string): string =>
  createHmac('sha256', installKey)
    .update(`webhook-install\0${app}\0${installId}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');

afterEach(async () => {
  const { endpoints } = await (await admin('')).json<{ endpoints: EndpointView[] }>();
  for (const endpoint of endpoints) await admin(`/${endpoint.id}`, { method: 'DELETE' });
});

it("an install webhook's `install` is the documented hash of the app's install id", async () => {
  const key = freshKey();
  await receiverEndpoint(key, 'ok', ['install']);
  const installId = crypto.randomUUID();
  const app = fakeApp(send, PHONES.iPhone15, '10.77.4.9');
  expect((await app.install(installId, {})).status).toBe(200);
  await expect.poll(async () => (await receiverLog(key)).delivered.length, { timeout: 20_000 }).toBe(1);
  const [payload] = (await receiverLog(key)).delivered as WebhookPayload[];
  expect(payload?.type).toBe('install');
  const { install } = (payload?.data ?? {}) as InstallData;
  const keyAnswer = await admin('/install-key');
  expect(keyAnswer.status).toBe(200);
  const { installKey } = await keyAnswer.json<{ installKey: string }>();
  expect(installKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(install).toBe(installHash(installKey, APP_ID, installId));
  // Another install id, or another app, gives another hash; the salt itself is not the key.
  expect(install).not.toBe(installHash(installKey, APP_ID, `${installId}x`));
  expect(install).not.toBe(installHash(installKey, 'com.other.app', installId));
  expect(install).not.toBe(installHash(DEV_ATTRIBUTION_SALT, APP_ID, installId));
});

it('is given to a caller who may change webhooks, never to one who may only read them; one key per app', async () => {
  const { call, makeKey } = await teamWorker();
  const reader = await makeKey(['webhooks:read']);
  const refused = await call({ key: reader.key }, 'GET', '/api/webhooks/install-key');
  expect(refused.status).toBe(403);
  expect(await refused.text()).not.toMatch(/[A-Za-z0-9_-]{22}"/);
  const writer = await makeKey(['webhooks:read', 'webhooks:write']);
  const given = await call({ key: writer.key }, 'GET', '/api/webhooks/install-key');
  expect(given.status).toBe(200);
  const { installKey } = await given.json<{ installKey: string }>();
  expect(installKey).not.toBe('team-test-salt');
  // Each app of the deployment has its own key, under the same salt.
  const salted = { ...env, ATTRIBUTION_SALT: 'team-test-salt' } as Env;
  await expect(installJoinKey(salted, 'default')).resolves.toBe(installKey);
  await expect(installJoinKey(salted, 'pebble')).resolves.not.toBe(installKey);
});
