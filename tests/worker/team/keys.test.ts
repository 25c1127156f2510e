/**
 * API keys through the real worker and D1 (docs/operators.md#api-keys): shown once and kept only as a
 * hash; a key signs in with its own scopes; revoked or expired → 401 with the reason; another app's
 * → 403; a key never gets a scope its creator lacks; each change is one audit entry.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keyHash } from '../../../worker/sign-in/api-keys.ts';
import { expectConforms } from '../conforms.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';
import { seedMember, teamWorker } from './team-fixtures.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

async function lastEntry() {
  return env.FUNNEL_DB.prepare(
    'SELECT actor, via, app, kind, action, target, before, after FROM audit_entries ORDER BY seq DESC LIMIT 1',
  ).first<Record<string, string>>();
}

describe('a key', () => {
  it('is answered once, at least 128 random bits, and kept only as its SHA-256', async () => {
    const { call, makeKey } = await teamWorker();
    const made = await makeKey(['links:read']);
    expect(made.key).toMatch(/^lk_default_[A-Za-z0-9_-]{43}$/);
    const row = await env.FUNNEL_DB.prepare('SELECT * FROM api_keys WHERE id = ?')
      .bind(made.id)
      .first<Record<string, unknown>>();
    expect(row?.hash).toBe(await keyHash(made.key));
    expect(JSON.stringify(row)).not.toContain(made.key.slice(11));
    const listed = await (await call({ token: true }, 'GET', '/api/keys')).text();
    expect(listed).toContain(made.id);
    expect(listed).not.toContain(made.key.slice(11));
    expect(listed).not.toContain(String(row?.hash));
  });

  it('signs in with its scopes alone: 403 names the scope it lacks', async () => {
    const { call, makeKey } = await teamWorker();
    const { key } = await makeKey(['links:read']);
    expect((await call({ key }, 'GET', '/api/links')).status).toBe(200);
    const refused = await call({ key }, 'POST', '/api/links', { channel: 'k' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: expect.stringContaining('links:write') });
    expect((await call({ key }, 'GET', '/api/stats')).status).toBe(403);
  });

  it('revoked: 401 saying so, and the revocation is one audit entry', async () => {
    const { call, makeKey } = await teamWorker();
    const { key, id } = await makeKey(['links:read']);
    expect((await call({ token: true }, 'DELETE', `/api/keys/${id}`)).status).toBe(204);
    expect(await lastEntry()).toMatchObject({
      kind: 'key',
      action: 'deleted',
      target: id,
      actor: 'token',
      via: 'token',
    });
    const res = await call({ key }, 'GET', '/api/links');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.stringContaining('revoked') });
    expect((await call({ token: true }, 'DELETE', `/api/keys/${id}`)).status).toBe(409);
    expect((await call({ token: true }, 'DELETE', '/api/keys/no-such-key')).status).toBe(404);
  });

  it('expired: 401 saying so', async () => {
    const { call, makeKey } = await teamWorker();
    const { key, id } = await makeKey(['links:read'], { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await call({ key }, 'GET', '/api/links')).status).toBe(200);
    await env.FUNNEL_DB.prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1, id)
      .run();
    const res = await call({ key }, 'GET', '/api/links');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.stringContaining('expired') });
  });

  it("of another app: 403 on this app's routes", async () => {
    const { call, makeKey } = await teamWorker();
    const { key, id } = await makeKey(['links:read']);
    await env.FUNNEL_DB.prepare("UPDATE api_keys SET app = 'other' WHERE id = ?").bind(id).run();
    const res = await call({ key }, 'GET', '/api/links');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: expect.stringContaining("another app's") });
  });

  it('unknown: 401', async () => {
    const { call } = await teamWorker();
    expect((await call({ key: 'lk_default_nothing-made-this' }, 'GET', '/api/links')).status).toBe(401);
  });

  it('gets no scope its creator lacks, and a key may make keys within its own', async () => {
    const { call, makeKey } = await teamWorker();
    const { key } = await makeKey(['keys:write', 'links:read']);
    const above = await call({ key }, 'POST', '/api/keys', { name: 'more', scopes: ['links:write'] });
    expect(above.status).toBe(403);
    expect(await above.json()).toEqual({ error: expect.stringContaining('links:write') });
    const within = await call({ key }, 'POST', '/api/keys', { name: 'less', scopes: ['links:read'] });
    expect(within.status).toBe(201);
    expect(await lastEntry()).toMatchObject({ kind: 'key', action: 'created', via: expect.stringMatching(/^key:/) });
    const person = 'editor-keys@example.com';
    await seedMember(person, 'editor');
    const editor = await call({ person }, 'POST', '/api/keys', { name: 'x', scopes: ['links:read'] });
    expect(editor.status).toBe(403);
    expect(await editor.json()).toEqual({ error: expect.stringContaining('keys:write') });
  });

  it('is refused with a 400 naming the field for a bad body, and nothing is stored', async () => {
    const { call } = await teamWorker();
    const count = async () =>
      (await env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM api_keys').first<{ n: number }>())?.n;
    const before = await count();
    for (const [body, field] of [
      [{ name: '', scopes: ['links:read'] }, 'name'],
      [{ name: 'a', scopes: [] }, 'scopes'],
      [{ name: 'a', scopes: ['links:admin'] }, 'scopes'],
      [{ name: 'a', scopes: ['links:read'], rateLimit: 0 }, 'rateLimit'],
      [{ name: 'a', scopes: ['links:read'], expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
    ] as const) {
      const res = await call({ token: true }, 'POST', '/api/keys', body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(new RegExp(`^${field}`));
    }
    expect(await count()).toBe(before);
  });
});

describe('the OpenAPI document', () => {
  it('describes what /api/keys and /api/members answer', async () => {
    const { call } = await teamWorker();
    const made = await call({ token: true }, 'POST', '/api/keys', { name: 'doc', scopes: ['stats:read'] });
    await expectConforms(made, '/api/keys', 'post');
    await expectConforms(await call({ token: true }, 'GET', '/api/keys'), '/api/keys', 'get');
    await expectConforms(await call({ token: true }, 'GET', '/api/members'), '/api/members', 'get');
    const refused = await call({ token: true }, 'POST', '/api/keys', { name: 'doc', scopes: [] });
    await expectConforms(refused, '/api/keys', 'post');
  });
});

describe('rate limits', () => {
  it('every answer carries RateLimit-Policy and RateLimit, counting down; 429 with Retry-After past the quota', async () => {
    const { call, makeKey } = await teamWorker();
    const { key } = await makeKey(['links:read'], { rateLimit: 3 });
    const remaining: string[] = [];
    for (let n = 0; n < 3; n += 1) {
      const res = await call({ key }, 'GET', '/api/links');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"key";q=3;w=60');
      remaining.push(res.headers.get('ratelimit') ?? '');
    }
    expect(remaining.map((field) => /r=(\d+)/.exec(field)?.[1])).toEqual(['2', '1', '0']);
    expect(remaining[0]).toMatch(/^"key";r=2;t=([1-9]|[1-5]\d|60)$/);
    const over = await call({ key }, 'GET', '/api/links');
    expect(over.status).toBe(429);
    expect(over.headers.get('ratelimit')).toMatch(/^"key";r=0;t=\d+$/);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts the admin token and each signed-in person under their own policy', async () => {
    const { call, worker } = await teamWorker();
    const token = await call({ token: true }, 'GET', '/api/links');
    expect(token.headers.get('ratelimit-policy')).toBe('"token";q=1200;w=60');
    // The local server's one token is shared by every test, script and console tab: ten times the quota.
    const local = await fetchWorker(
      `${ORIGIN}/api/links`,
      { headers: { authorization: `Bearer ${worker.ADMIN_TOKEN}` } },
      { ...worker, LANDER_ENV: 'development' },
    );
    expect(local.headers.get('ratelimit-policy')).toBe('"token";q=12000;w=60');
    const subject = `p-${crypto.randomUUID()}@example.com`;
    await seedMember(subject, 'viewer');
    const person = await call({ person: subject }, 'GET', '/api/links');
    expect(person.status).toBe(200);
    expect(person.headers.get('ratelimit-policy')).toBe('"sign-in";q=600;w=60');
    expect(person.headers.get('ratelimit')).toMatch(/^"sign-in";r=599;t=\d+$/);
  });
});
