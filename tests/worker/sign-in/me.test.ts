/**
 * `GET /api/me` through the real worker (docs/operators.md#who-is-calling): the admin token, an API
 * key, a member signed in by Access and one by an OpenID Connect session each learn who they are in
 * the request's app, with their role or key and their scopes; only the session is told where to end
 * it. A caller the sign-in does not know is 401, as on every admin route.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../../shared/me.ts';
import { ROLE_SCOPES, SCOPES } from '../../../shared/roles.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { accessTeam } from '../access-team.ts';
import { expectConforms } from '../conforms.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';
import { oidcProvider } from '../oidc-provider.ts';
import { clearMembers, seedMember } from '../team/team-fixtures.ts';

afterEach(async () => {
  vi.restoreAllMocks();
  await clearMembers();
});

const me = (headers: Record<string, string>, bindings: Partial<Env> = {}) =>
  fetchWorker(`${ORIGIN}/api/me`, { headers }, bindings);

async function answer(res: Response): Promise<Me> {
  expect(res.status, await res.clone().text()).toBe(200);
  await expectConforms(res, '/api/me', 'get');
  return (await res.json()) as Me;
}

describe('GET /api/me', () => {
  it('the admin token: owner of the app, every scope, nothing to sign out of', async () => {
    expect(await answer(await me({ authorization: `Bearer ${DEV_ADMIN_TOKEN}` }))).toEqual({
      actor: 'token',
      via: 'token',
      app: 'default',
      role: 'owner',
      key: null,
      scopes: [...SCOPES],
      signOut: null,
    });
  });

  it('an API key: its id and name, no role, exactly its scopes', async () => {
    const made = await fetchWorker(`${ORIGIN}/api/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'figures', scopes: ['stats:read', 'links:read'] }),
    });
    const { key, id } = (await made.json()) as { key: string; id: string };
    expect(await answer(await me({ authorization: `Bearer ${key}` }))).toEqual({
      actor: 'key:figures',
      via: `key:${id}`,
      app: 'default',
      role: null,
      key: { id, name: 'figures' },
      scopes: ['stats:read', 'links:read'],
      signOut: null,
    });
  });

  it('a viewer signed in by Access: the viewer’s scopes, none of the team’s', async () => {
    const { key, claims, bindings } = await accessTeam();
    await seedMember('viewer@example.com', 'viewer');
    const assertion = await key.sign({ ...claims, email: 'viewer@example.com' });
    const who = await answer(await me({ 'cf-access-jwt-assertion': assertion }, bindings));
    expect(who).toMatchObject({
      actor: 'viewer@example.com',
      via: 'sign-in',
      role: 'viewer',
      key: null,
      signOut: null,
    });
    expect(who.scopes).toEqual([...ROLE_SCOPES.viewer]);
    expect(who.scopes).not.toContain('keys:read');
    expect(who.scopes).not.toContain('members:read');
  });

  it('an OpenID Connect session: its role, and /auth/logout to end it', async () => {
    const provider = await oidcProvider();
    const bindings = provider.bindings;
    const call = (path: string, init: RequestInit = {}) =>
      fetchWorker(`${ORIGIN}${path}`, { redirect: 'manual', ...init }, bindings);
    await seedMember('ops@example.com', 'analyst');
    const login = await call('/auth/login?return=/admin');
    const signing = /lander-sign-in=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    const back = provider.approve(login.headers.get('location') ?? '');
    const callback = await call(`${back.pathname}${back.search}`, { headers: { cookie: `lander-sign-in=${signing}` } });
    const session = /lander-session=([^;]+)/.exec(callback.headers.getSetCookie().join('\n'))?.[1];
    expect(session).toBeDefined();
    const who = await answer(await me({ cookie: `lander-session=${session}` }, bindings));
    expect(who).toMatchObject({ actor: 'ops@example.com', via: 'sign-in', role: 'analyst', signOut: '/auth/logout' });
    expect(who.scopes).toEqual([...ROLE_SCOPES.analyst]);
  });

  it('answers the app the call was made for', async () => {
    await env.KV.put(
      'apps',
      JSON.stringify({
        apps: [
          { id: 'default', name: 'A' },
          { id: 'sketch', name: 'B' },
        ],
      }),
    );
    try {
      const res = await fetchWorker(`${ORIGIN}/@sketch/api/me`, {
        headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` },
      });
      expect((await answer(res)).app).toBe('sketch');
    } finally {
      await env.KV.delete('apps');
    }
  });

  it('no caller: 401 with WWW-Authenticate, as every admin route', async () => {
    const res = await me({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="lander-admin"');
  });
});
