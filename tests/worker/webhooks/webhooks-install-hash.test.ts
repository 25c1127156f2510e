/**
 * The app's backend joins a webhook to its user by the install id (docs/webhooks.md#joining-an-install-to-a-user):
 * computed the documented way — HMAC-SHA-256 under `ATTRIBUTION_SALT` of
 * `webhook-install\0<app>\0<installId>`, its first 16 bytes in URL-safe base64 — from the install id
 * the SDK's `installId()` gives, the hash equals the `install` of the real `install` webhook.
 */

import { exports } from 'cloudflare:workers';
import { createHmac } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import type { EndpointView, InstallData, WebhookPayload } from '../../../shared/webhooks.ts';
import { DEV_ATTRIBUTION_SALT } from '../../../worker/settings.ts';
import { APP_ID, fakeApp, PHONES, type Send } from '../../fixtures/fake-app.ts';
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

/** The documented computation, as a Node backend writes it. */
const installHash = (salt: string, app: string, installId: string): string =>
  createHmac('sha256', salt)
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
  expect(install).toBe(installHash(DEV_ATTRIBUTION_SALT, APP_ID, installId));
  // Another install id, or another app, gives another hash.
  expect(install).not.toBe(installHash(DEV_ATTRIBUTION_SALT, APP_ID, `${installId}x`));
  expect(install).not.toBe(installHash(DEV_ATTRIBUTION_SALT, 'com.other.app', installId));
});
