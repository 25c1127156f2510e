/**
 * A user's own invite links under erasure and access (docs/privacy.md#requests-erasure-and-access):
 * an app's invite link keeps the user id its app identified as the inviter, as given, so a request by
 * that user id finds the links when it is taken, answers them to an access request, and removes them
 * (with their `link.*` webhook events) on erasure, through the real worker, D1 and the privacy queue.
 * Another user's links stay.
 */
import { env, exports } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APPS_KEY, configKeyOf } from '../../../shared/apps.ts';
import type { PrivacyStatus } from '../../../shared/privacy.ts';
import { appSalt } from '../../../worker/apps/app-keys.ts';
import { installKey } from '../../../worker/attribution/resolve-install.ts';
import demo from '../../../worker/config/demo.json';
import { settingsOf } from '../../../worker/settings.ts';
import { eventMessage } from '../../../worker/webhooks/emit.ts';
import { ORIGIN } from '../helpers.ts';
import { privacy, requestBody } from './privacy-fixtures.ts';

const APP = 'inviting';
const PACKAGE = 'com.pebble.notes';

beforeAll(async () => {
  await env.KV.put(
    APPS_KEY,
    JSON.stringify({
      apps: [
        { id: 'default', name: 'default' },
        { id: APP, name: APP },
      ],
    }),
  );
  const invites = { enabled: true, channels: ['invite'], data_keys: [], max_value_length: 12, per_day: 100 };
  await env.KV.put(configKeyOf(APP), JSON.stringify({ ...demo, invites }));
});
afterAll(async () => {
  await env.KV.delete(APPS_KEY);
  await env.KV.delete(configKeyOf(APP));
});

let addresses = 0;
function post(path: string, body: unknown): Promise<Response> {
  addresses += 1;
  return exports.default.fetch(
    new Request(`${ORIGIN}/@${APP}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': `198.19.7.${addresses}` },
    }),
  );
}

/** Invite links made by an install identified as `userId`: their slugs. */
async function invitesOf(userId: string, count: number): Promise<string[]> {
  const installId = `inst-${crypto.randomUUID()}`;
  const install = { app: PACKAGE, platform: 'android', osVersion: '14', model: 'SM-S911B', installId };
  const screen = { screen: { w: 360, h: 780, scale: 3 }, tz: 'Asia/Kolkata', langs: ['en-IN'] };
  expect((await post('/api/a/install', { ...install, ...screen })).status).toBe(200);
  expect((await post('/api/a/identify', { app: PACKAGE, installId, userId })).status).toBe(204);
  const key = await installKey(appSalt(settingsOf(env).attributionSalt ?? '', APP), PACKAGE, installId);
  await vi.waitFor(
    async () =>
      expect(
        await env.FUNNEL_DB.prepare(
          "SELECT 1 AS yes FROM fraud_identities WHERE app = ?1 AND kind = 'install' AND value = ?2",
        )
          .bind(APP, key)
          .first(),
      ).not.toBeNull(),
    { timeout: 10_000, interval: 20 },
  );
  const slugs: string[] = [];
  for (let made = 0; made < count; made += 1) {
    const res = await post('/api/a/links', { app: PACKAGE, installId, inviter: userId });
    expect(res.status, await res.clone().text()).toBe(201);
    slugs.push((await res.json<{ slug: string }>()).slug);
  }
  return slugs;
}

/** Makes a request of `type` for user `userId` in the app, and waits until it is completed. */
async function requested(type: 'access' | 'erasure', userId: string): Promise<PrivacyStatus & { id: string }> {
  const made = await privacy(`/@${APP}/api/privacy/requests`, {
    method: 'POST',
    body: requestBody(type, { type: 'user_id', value: userId }),
  });
  expect(made.status, await made.clone().text()).toBe(201);
  const { subject_request_id: id } = await made.json<{ subject_request_id: string }>();
  let status: PrivacyStatus | undefined;
  await vi.waitFor(
    async () => {
      status = await (await privacy(`/@${APP}/api/privacy/requests/${id}`)).json<PrivacyStatus>();
      if (status.request_status !== 'completed') throw new Error(`still ${status.request_status}`);
    },
    { timeout: 20_000, interval: 50 },
  );
  return { ...(status as PrivacyStatus), id };
}

const slugsLeft = async (): Promise<string[]> =>
  (
    await env.FUNNEL_DB.prepare('SELECT slug FROM funnel_links WHERE app = ?1 ORDER BY slug')
      .bind(APP)
      .all<{ slug: string }>()
  ).results.map(({ slug }) => slug);

describe("a user's invite links", () => {
  it('are answered to an access request by that user id, and removed by its erasure, another user’s kept', async () => {
    const ann = await invitesOf('user-ann', 2);
    const bob = await invitesOf('user-bob', 1);
    // Their link.created events are kept by the webhooks' consumer after the responses: all three first.
    await vi.waitFor(
      async () =>
        expect(
          (
            await env.FUNNEL_DB.prepare(
              "SELECT COUNT(*) AS n FROM webhook_events WHERE app = ?1 AND type = 'link.created'",
            )
              .bind(APP)
              .first<{ n: number }>()
          )?.n,
        ).toBe(3),
      { timeout: 10_000, interval: 50 },
    );

    const access = await requested('access', 'user-ann');
    const data = await (await privacy(`/@${APP}/api/privacy/requests/${access.id}/data`)).json<{
      data: Record<string, { slug: string }[]>;
    }>();
    expect(data.data['d1 funnel_links']?.map(({ slug }) => slug).sort()).toEqual([...ann].sort());
    expect(JSON.stringify(data)).not.toContain(bob[0]);

    const erased = await requested('erasure', 'user-ann');
    expect(erased.receipt?.receipt.lines).toContainEqual({ store: 'd1', where: 'funnel_links', count: 2 });
    expect(await slugsLeft()).toEqual(bob);
    // Their link.created events are gone from the webhooks' store too; bob's are not.
    const events = await env.FUNNEL_DB.prepare(
      "SELECT json_extract(body, '$.data.slug') AS slug FROM webhook_events WHERE app = ?1 AND type LIKE 'link.%'",
    )
      .bind(APP)
      .all<{ slug: string }>();
    expect(events.results.map(({ slug }) => slug)).toEqual(bob);
    // A link.updated of Ann's link still queued is dropped when consumed; one of Bob's is kept.
    const linkEvent = (slug: string) =>
      eventMessage(
        'link.updated',
        { slug, data: { inviter: 'x' }, createdAt: new Date().toISOString(), expiresAt: null },
        Date.now(),
        crypto.randomUUID(),
        APP,
      );
    await env.WEBHOOK_QUEUE.send(linkEvent(ann[0] as string));
    await env.WEBHOOK_QUEUE.send(linkEvent(bob[0] as string));
    const updated = async () =>
      (
        await env.FUNNEL_DB.prepare(
          "SELECT json_extract(body, '$.data.slug') AS slug FROM webhook_events WHERE app = ?1 AND type = 'link.updated'",
        )
          .bind(APP)
          .all<{ slug: string }>()
      ).results.map(({ slug }) => slug);
    await vi.waitFor(async () => expect(await updated()).toEqual(bob), { timeout: 10_000, interval: 50 });
  });
});
