/**
 * `/api/webhooks` (docs/webhooks.md#admin-api): sign-in, the secret shown only at creation and on
 * rotation, refusals with their reason, changes, deletion, the test delivery (verified by the
 * receiver with `standardwebhooks`), the delivery log.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import type { AttemptView, EndpointView, EndpointWithSecret } from '../../../shared/webhooks.ts';
import { attemptDelivery } from '../../../worker/webhooks/deliver.ts';
import { ROTATION_OVERLAP_MS } from '../../../worker/webhooks/endpoints.ts';
import { fetchWorker } from '../helpers.ts';
import { admin, freshKey, RECEIVER, receiverEndpoint, receiverLog, setSecret } from '../webhook-fixtures.ts';

const PRODUCTION_TOKEN = 'production-admin-token-for-tests';

/** A call in production (its own admin token), where only https is taken. */
async function inProduction(body: unknown): Promise<Response> {
  return fetchWorker(
    'https://lander.test/api/webhooks',
    {
      method: 'POST',
      headers: { authorization: `Bearer ${PRODUCTION_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    { ...env, LANDER_ENV: 'production', ADMIN_TOKEN: PRODUCTION_TOKEN, WEBHOOK_RESOLVER: `${RECEIVER}/dns-query` },
  );
}

afterEach(async () => {
  const { endpoints } = await (await admin('')).json<{ endpoints: EndpointView[] }>();
  for (const endpoint of endpoints) await admin(`/${endpoint.id}`, { method: 'DELETE' });
});

describe('/api/webhooks', () => {
  it('asks for the admin sign-in', async () => {
    const res = await fetchWorker('https://lander.test/api/webhooks', {}, env);
    expect(res.status).toBe(401);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('creates an endpoint with a whsec_ secret shown once, and every type but click by default', async () => {
    const res = await admin('', {
      method: 'POST',
      body: { url: 'https://hooks.example.com/lander', description: 'CRM' },
    });
    expect(res.status).toBe(201);
    const made = await res.json<EndpointWithSecret>();
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(made.endpoint).toMatchObject({
      url: 'https://hooks.example.com/lander',
      description: 'CRM',
      events: ['install', 'open', 'event', 'link.created', 'link.updated', 'link.deleted'],
      enabled: true,
      disabledReason: null,
      counts: { pending: 0, delivered: 0, failed: 0, dead: 0 },
    });
    const listed = await (await admin('')).text();
    expect(listed).toContain(made.endpoint.id);
    expect(listed).not.toContain(made.secret.slice(6));
    expect(await (await admin(`/${made.endpoint.id}`)).text()).not.toContain(made.secret.slice(6));
  });

  it.each([
    [{ url: 'http://hooks.example.com/' }, 'url: must be https'],
    [{ url: 'https://10.0.0.8/hook' }, 'url: must not point to a private address (10.0.0.8)'],
    [{ url: 'https://127.0.0.1:8443/hook' }, 'url: must not point to a loopback address (127.0.0.1)'],
    [{ url: 'https://[::1]/hook' }, 'url: must not point to a loopback address ([::1])'],
    [{ url: 'https://169.254.169.254/' }, 'url: must not point to a cloud metadata address (169.254.169.254)'],
    [{ url: 'https://metadata.google.internal/' }, 'url: must not point to a cloud metadata name'],
    [{ url: 'https://localhost/hook' }, 'url: must not point to a name of a local network (localhost)'],
    [{ url: 'https://ann:secret@hooks.example.com/' }, 'url: must not carry a user name or password'],
    [{ url: 'http://127.0.0.1:9000/hook' }, 'url: must be https'],
    [{ url: 'https://hooks.example.com/', events: ['install', 'purchase'] }, 'events.1: must be among'],
    [{ url: 'https://hooks.example.com/', events: [] }, 'events: needs at least one event type'],
    [{ url: 'https://hooks.example.com/', secret: 'mine' }, 'secret'],
    [{ url: 'https://private.test/hook' }, 'url: must not resolve to a private address (10.0.0.5)'],
    [{ url: 'https://loop6.test/hook' }, 'url: must not resolve to a loopback address ([::1])'],
    [{ url: 'https://metadata.test/hook' }, 'url: must not resolve to a cloud metadata address (169.254.169.254)'],
    [{ url: 'https://nx.test/hook' }, 'url: must be a name that resolves to an address'],
    [{ url: 'https://empty.test/hook' }, 'url: must be a name that resolves to an address'],
    [{ url: 'https://down.test/hook' }, 'url: could not be resolved (the resolver did not answer)'],
  ])('refuses %j in production with 400 and the reason', async (body, reason) => {
    const res = await inProduction(body);
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain(reason);
  });

  it('takes an https endpoint in production whose name resolves to public addresses only', async () => {
    expect((await inProduction({ url: 'https://public.test/lander' })).status).toBe(201);
    expect((await inProduction({ url: 'https://93.184.216.34/lander' })).status).toBe(201);
  });

  it('checks the name again before each delivery: a private answer is final, a silent resolver retries', async () => {
    const target = { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', id: 'msg_dns', body: '{}' };
    const resolver = `${RECEIVER}/dns-query`;
    expect(await attemptDelivery({ ...target, url: 'https://private.test/x' }, 'production', { resolver })).toEqual({
      verdict: 'final',
      status: 0,
      latencyMs: expect.any(Number),
      error: 'url must not resolve to a private address (10.0.0.5)',
    });
    expect(await attemptDelivery({ ...target, url: 'https://down.test/x' }, 'production', { resolver })).toMatchObject({
      verdict: 'retry',
      error: 'url could not be resolved (the resolver did not answer)',
    });
  });

  it('changes URL, events and description, checking the URL again, and disables on request', async () => {
    const { endpoint } = await (
      await admin('', { method: 'POST', body: { url: 'https://a.example.com/' } })
    ).json<EndpointWithSecret>();
    const changed = await admin(`/${endpoint.id}`, {
      method: 'PATCH',
      body: { url: 'https://b.example.com/x', events: ['click'], description: 'warehouse' },
    });
    expect(await changed.json()).toMatchObject({
      url: 'https://b.example.com/x',
      events: ['click'],
      description: 'warehouse',
    });
    const bad = await admin(`/${endpoint.id}`, { method: 'PATCH', body: { url: 'https://192.168.0.1/' } });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ error: string }>()).error).toBe('url: must not point to a private address (192.168.0.1)');
    const off = await admin(`/${endpoint.id}`, { method: 'PATCH', body: { enabled: false } });
    expect(await off.json()).toMatchObject({ enabled: false, disabledReason: 'operator' });
  });

  it('refuses a second endpoint of the same URL, however it is written, with a 409 naming url', async () => {
    const first = await admin('', { method: 'POST', body: { url: 'https://hooks.example.com/same' } });
    expect(first.status).toBe(201);
    const again = await admin('', {
      method: 'POST',
      body: { url: 'HTTPS://Hooks.Example.com/same', description: 'x' },
    });
    expect(again.status).toBe(409);
    expect((await again.json<{ error: string }>()).error).toBe(
      'url: another endpoint already has https://hooks.example.com/same',
    );
    const { endpoints } = await (await admin('')).json<{ endpoints: EndpointView[] }>();
    expect(endpoints.filter((endpoint) => endpoint.url === 'https://hooks.example.com/same')).toHaveLength(1);
    // Moving another endpoint onto that URL is the same refusal; keeping its own URL is not.
    const { endpoint: other } = await (
      await admin('', { method: 'POST', body: { url: 'https://hooks.example.com/other' } })
    ).json<EndpointWithSecret>();
    const moved = await admin(`/${other.id}`, { method: 'PATCH', body: { url: 'https://hooks.example.com/same' } });
    expect(moved.status).toBe(409);
    expect((await moved.json<{ error: string }>()).error).toMatch(/^url: /);
    const kept = await admin(`/${other.id}`, { method: 'PATCH', body: { url: other.url, description: 'kept' } });
    expect(await kept.json()).toMatchObject({ url: 'https://hooks.example.com/other', description: 'kept' });
  });
  it('deletes an endpoint; it is then unknown', async () => {
    const { endpoint } = await (
      await admin('', { method: 'POST', body: { url: 'https://a.example.com/' } })
    ).json<EndpointWithSecret>();
    expect((await admin(`/${endpoint.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await admin(`/${endpoint.id}`)).status).toBe(404);
    expect((await admin(`/${endpoint.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await admin('/not-an-id/rotate', { method: 'POST' })).status).toBe(404);
  });

  it('sends a signed test the receiver verifies, and logs it', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'ok');
    const res = await admin(`/${endpoint.id}/test`, { method: 'POST' });
    expect(await res.json()).toMatchObject({ delivered: true, status: 200, error: '' });
    const log = await receiverLog(key);
    expect(log.verified).toBe(1);
    expect(log.delivered).toEqual([{ type: 'test', timestamp: expect.any(String), data: { endpoint: endpoint.id } }]);
    const { attempts } = await (await admin(`/${endpoint.id}/attempts`)).json<{ attempts: AttemptView[] }>();
    expect(attempts).toEqual([
      expect.objectContaining({ type: 'test', attempt: 1, status: 200, error: '', retryInSeconds: null }),
    ]);
  });

  it('rotates the secret: shown once; a receiver with the old one verifies for 24 hours, not after', async () => {
    const key = freshKey();
    const { endpoint, secret: old } = await receiverEndpoint(key, 'ok');
    const before = Date.now();
    const rotated = await (await admin(`/${endpoint.id}/rotate`, { method: 'POST' })).json<EndpointWithSecret>();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(old);
    const until = Date.parse(rotated.endpoint.previousSecretUntil ?? '');
    expect(until - before).toBeGreaterThanOrEqual(ROTATION_OVERLAP_MS);
    expect(until - Date.now()).toBeLessThanOrEqual(ROTATION_OVERLAP_MS);
    const test = async () => (await admin(`/${endpoint.id}/test`, { method: 'POST' })).json();
    // Within the window the receiver verifies with the old secret and with the new one.
    expect(await test()).toMatchObject({ delivered: true, status: 200 });
    await setSecret(key, rotated.secret);
    expect(await test()).toMatchObject({ delivered: true, status: 200 });
    expect((await receiverLog(key)).signatures).toEqual([2, 2]);

    // The window's stored end passes: only the new secret signs.
    await env.FUNNEL_DB.prepare('UPDATE webhook_endpoints SET previous_secret_until = ?2 WHERE id = ?1')
      .bind(endpoint.id, Date.now() - 1)
      .run();
    expect(await test()).toMatchObject({ delivered: true });
    await setSecret(key, old);
    expect(await test()).toMatchObject({ delivered: false, status: 400, error: 'HTTP 400: bad signature' });
    expect((await receiverLog(key)).signatures).toEqual([2, 2, 1, 1]);
    expect((await (await admin(`/${endpoint.id}`)).json<EndpointView>()).previousSecretUntil).toBeNull();
    const listed = await (await admin('')).text();
    expect(listed).not.toContain(rotated.secret.slice(6));
    expect(listed).not.toContain(old.slice(6));
  });

  it('refuses a resend range that ends before it starts', async () => {
    const { endpoint } = await receiverEndpoint(freshKey(), 'ok');
    const res = await admin(`/${endpoint.id}/resend`, {
      method: 'POST',
      body: { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'to: must not be before from' });
    expect(RECEIVER).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
