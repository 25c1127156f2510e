/**
 * Privacy requests keep apps apart (docs/privacy.md#requests-erasure-and-access), with a second app
 * registered (`beta`) and its admin signed in by a Cloudflare Access team of the test's own: app B's
 * admin can neither list, read, read the data of, nor cancel app A's request, on B's path or on A's;
 * and an erasure filed in app B for the very ids a person has in app A — even where app A's rows carry
 * the hashes app B makes of them — leaves every store of app A as it was, its queued webhook messages
 * included.
 */
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APPS_KEY } from '../../../shared/apps.ts';
import type { PrivacyList, PrivacyStatus } from '../../../shared/privacy.ts';
import { insertRequest } from '../../../worker/privacy/requests.ts';
import { eventMessage } from '../../../worker/webhooks/emit.ts';
import { accessTeam } from '../access-team.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';
import { clearMembers, seedMember } from '../team/team-fixtures.ts';
import { hashesIn, privacy, requestBody, type Subject, scan, seed, seedExport, subjectOf } from './privacy-fixtures.ts';

const B_ADMIN = 'admin-of-beta@example.com';
let team: Awaited<ReturnType<typeof accessTeam>>;

beforeAll(async () => {
  await env.KV.put(APPS_KEY, JSON.stringify({ apps: ['default', 'beta'].map((id) => ({ id, name: id })) }));
  await seedMember(B_ADMIN, 'admin', 'beta');
  // App A has members of its own: without any, everyone signed in would be its owner (docs/operators.md#roles).
  await seedMember('owner-of-default@example.com', 'owner', 'default');
  team = await accessTeam();
});

afterAll(async () => {
  vi.restoreAllMocks();
  await env.KV.delete(APPS_KEY);
  await clearMembers('beta');
  await clearMembers('default');
});

/** A call as app B's admin, signed in by Access (development: the admin token is not sent). */
async function asB(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  const jwt = await team.key.sign({ ...team.claims, email: B_ADMIN });
  const { ACCESS_AUD, ACCESS_TEAM_DOMAIN } = team.bindings;
  return fetchWorker(
    `${ORIGIN}${path}`,
    {
      method: init.method ?? 'GET',
      headers: { 'cf-access-jwt-assertion': jwt, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    },
    { ACCESS_AUD, ACCESS_TEAM_DOMAIN },
  );
}

/** Waits until `read()` answers a completed request. */
async function completed(read: () => Promise<Response>): Promise<PrivacyStatus> {
  let status: PrivacyStatus | undefined;
  await vi.waitFor(
    async () => {
      status = await (await read()).json<PrivacyStatus>();
      if (status.request_status !== 'completed') throw new Error(`still ${status.request_status}`);
    },
    { timeout: 20_000, interval: 50 },
  );
  if (!status) throw new Error('no status');
  return status;
}

/** A request of app A left pending: filed straight in D1, queued nowhere. */
async function pendingInA(): Promise<string> {
  const id = crypto.randomUUID();
  const now = Date.now();
  const keys = { installs: [], webhookInstalls: [], testDevices: [], visitors: ['seeded'], users: [] };
  await insertRequest(env.FUNNEL_DB, {
    app: 'default',
    ...{ id, type: 'erasure', identity_type: 'visitor_id', subject_keys: JSON.stringify(keys), subject_digest: 'd' },
    ...{ status: 'pending', submitted_at: now, received_at: now, expected_at: now + 86_400_000, completed_at: null },
    ...{ callback_urls: '[]', callback_secret: null, actor: 'token', receipt: null },
  });
  return id;
}

describe('two apps’ privacy requests', () => {
  it("keep app B's admin from listing, reading, reading the data of or cancelling app A's request", async () => {
    const made = await privacy('/api/privacy/requests', {
      method: 'POST',
      body: requestBody('access', { type: 'visitor_id', value: `v-a-${crypto.randomUUID()}` }),
    });
    const { subject_request_id: done } = await made.json<{ subject_request_id: string }>();
    await completed(() => privacy(`/api/privacy/requests/${done}`));
    const pending = await pendingInA();
    // B's admin is an admin: B's own requests it makes and reads.
    const own = await asB('/@beta/api/privacy/requests', {
      method: 'POST',
      body: requestBody('access', { type: 'visitor_id', value: `v-b-${crypto.randomUUID()}` }),
    });
    expect(own.status, await own.clone().text()).toBe(201);
    const { subject_request_id: mine } = await own.json<{ subject_request_id: string }>();
    await completed(() => asB(`/@beta/api/privacy/requests/${mine}`));

    const listed = await (await asB('/@beta/api/privacy/requests')).json<PrivacyList>();
    expect(listed.requests.map((request) => request.subject_request_id)).toEqual([mine]);
    for (const id of [done, pending]) {
      expect((await asB(`/@beta/api/privacy/requests/${id}`)).status).toBe(404);
      expect((await asB(`/@beta/api/privacy/requests/${id}/data`)).status).toBe(404);
      expect((await asB(`/@beta/api/privacy/requests/${id}`, { method: 'DELETE' })).status).toBe(404);
      // On app A's own path B's admin is no member.
      for (const [method, tail] of [
        ['GET', ''],
        ['GET', '/data'],
        ['DELETE', ''],
      ] as const) {
        const res = await asB(`/api/privacy/requests/${id}${tail}`, { method });
        expect(res.status, `${method} ${tail}`).toBe(403);
        expect(await res.text()).toContain('is not a member of the app default');
      }
    }
    expect((await asB('/api/privacy/requests')).status).toBe(403);
    // App A's requests are as they were: the pending one is still A's to cancel.
    const stillPending = await (await privacy(`/api/privacy/requests/${pending}`)).json<PrivacyStatus>();
    expect(stillPending.request_status).toBe('pending');
    expect((await privacy(`/api/privacy/requests/${pending}`, { method: 'DELETE' })).status).toBe(204);
    expect((await privacy(`/api/privacy/requests/${done}`)).status).toBe(200);
  });

  it("erases nothing of app A's when app B erases the same person", async () => {
    const person = await subjectOf('a-side');
    // App A's rows under the hashes app B makes of the same ids: only the app tells them apart.
    const { installId, visitorId, userId } = person;
    const twin: Subject = {
      ...(await subjectOf('twin')),
      ...{ installId, visitorId, userId },
      hashes: await hashesIn('beta', person),
    };
    await seed(person);
    await seed(twin);
    await seedExport('exports/install/date=2026-01-07/part-0.ndjson.gz', [person, twin]);
    const before = [await scan(person), await scan(twin)];
    expect(Object.keys(before[0] ?? {}).length).toBeGreaterThan(15);
    expect(Object.keys(before[1] ?? {}).length).toBeGreaterThan(15);

    for (const [type, value] of [
      ['install_id', person.installId],
      ['visitor_id', person.visitorId],
      ['user_id', person.userId],
    ] as const) {
      const res = await asB('/@beta/api/privacy/requests', {
        method: 'POST',
        body: requestBody('erasure', { type, value }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const { subject_request_id: id } = await res.json<{ subject_request_id: string }>();
      const status = await completed(() => asB(`/@beta/api/privacy/requests/${id}`));
      expect(status.receipt?.receipt.app).toBe('beta');
      expect(status.receipt?.receipt.lines.filter((line) => line.count > 0)).toEqual([]);
    }
    expect([await scan(person), await scan(twin)]).toEqual(before);

    // A message of app A carrying the hash B erased is still recorded in app A.
    const id = `cross-${crypto.randomUUID()}`;
    await env.WEBHOOK_QUEUE.send(eventMessage('install', { install: twin.hashes.webhook } as never, Date.now(), id));
    const recorded = () =>
      env.FUNNEL_DB.prepare("SELECT COUNT(*) AS n FROM webhook_events WHERE app = 'default' AND id = ?1")
        .bind(id)
        .first<{ n: number }>();
    await vi.waitFor(async () => expect((await recorded())?.n).toBe(1), { timeout: 10_000, interval: 50 });
  });
});
