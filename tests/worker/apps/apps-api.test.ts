/**
 * `GET /api/apps` (docs/routes.md#apps): the apps the caller may see — every app for the admin token,
 * its own app for an API key — each with the base its console and API are under; no caller, no list.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APPS_KEY } from '../../../shared/apps.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { expectConforms } from '../conforms.ts';
import { fetchWorker } from '../helpers.ts';
import { CLIENT_ID, oidcProvider } from '../oidc-provider.ts';
import { clearMembers, seedMember, teamWorker } from '../team/team-fixtures.ts';

const REGISTRY = {
  apps: [
    { id: 'default', name: 'Pebble', hosts: ['lander.test'] },
    { id: 'notes', name: 'Notes', hosts: ['go.notes.test'] },
  ],
};

const call = (url: string, token: string, init: RequestInit = {}) =>
  fetchWorker(url, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });

afterEach(async () => {
  vi.restoreAllMocks();
  await env.KV.delete(APPS_KEY);
  await Promise.all(['default', 'notes', 'sketch'].map((app) => clearMembers(app)));
});

/** Three apps: default and notes with members (ana a viewer of notes only), sketch with none yet. */
async function staffedApps(): Promise<void> {
  await env.KV.put(APPS_KEY, JSON.stringify({ apps: [...REGISTRY.apps, { id: 'sketch', name: 'Sketch' }] }));
  await seedMember('owner@example.com', 'owner', 'default');
  await seedMember('owner@example.com', 'owner', 'notes');
  await seedMember('ana@example.com', 'viewer', 'notes');
}

const ids = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { apps: { id: string }[] }).apps.map((app) => app.id);
};

describe('GET /api/apps', () => {
  it('lists every app for the admin token, with the base of each on the shared host', async () => {
    await env.KV.put(APPS_KEY, JSON.stringify(REGISTRY));
    const res = await call('https://lander.test/api/apps', DEV_ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      apps: [
        { id: 'default', name: 'Pebble', hosts: ['lander.test'], base: '', console: '/admin' },
        { id: 'notes', name: 'Notes', hosts: ['go.notes.test'], base: '/@notes', console: '/@notes/admin' },
      ],
      current: 'default',
    });
  });

  it("opens each console from an app's own host on a host that reaches it: never a prefix there", async () => {
    await env.KV.put(APPS_KEY, JSON.stringify({ apps: [...REGISTRY.apps, { id: 'sketch', name: 'Sketch' }] }));
    const res = await call('https://go.notes.test/api/apps', DEV_ADMIN_TOKEN);
    expect(res.status).toBe(200);
    await expectConforms(res, '/api/apps', 'get');
    const { apps, current } = (await res.json()) as { apps: { id: string; console: string | null }[]; current: string };
    expect(current).toBe('notes');
    expect(Object.fromEntries(apps.map((app) => [app.id, app.console]))).toEqual({
      default: 'https://lander.test/admin',
      notes: 'https://go.notes.test/admin',
      sketch: 'https://lander.test/@sketch/admin',
    });
    // Each address answers as that app's console.
    for (const app of apps) {
      const page = await fetchWorker(app.console ?? '');
      expect(page.status, app.console ?? '').toBe(200);
    }
  });

  it('names the current app of the prefix it was asked under', async () => {
    await env.KV.put(APPS_KEY, JSON.stringify(REGISTRY));
    const res = await call('https://lander.test/@notes/api/apps', DEV_ADMIN_TOKEN);
    expect(((await res.json()) as { current: string }).current).toBe('notes');
  });

  it('lists the one app default when there is no registry', async () => {
    const res = await call('https://lander.test/api/apps', DEV_ADMIN_TOKEN);
    expect(await res.json()).toEqual({
      apps: [{ id: 'default', name: 'default', hosts: [], base: '', console: '/admin' }],
      current: 'default',
    });
  });

  it("lists only an API key's own app", async () => {
    await env.KV.put(APPS_KEY, JSON.stringify(REGISTRY));
    const made = await call('https://lander.test/@notes/api/keys', DEV_ADMIN_TOKEN, {
      method: 'POST',
      body: JSON.stringify({ name: 'figures', scopes: ['stats:read'] }),
    });
    expect(made.status).toBe(201);
    const { key } = (await made.json()) as { key: string };
    const res = await call('https://lander.test/@notes/api/apps', key);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { apps: { id: string }[] }).apps.map((app) => app.id)).toEqual(['notes']);
    // On the default app's API the key is another app's.
    expect((await call('https://lander.test/api/apps', key)).status).toBe(403);
  });

  it('lists a person signed in only the apps they hold a role in: never another app or its hosts', async () => {
    await staffedApps();
    const { call: as } = await teamWorker();
    // A member of notes alone: notes, and sketch, which has no member yet (anyone signed in owns it).
    expect(await ids(await as({ person: 'Ana@Example.com' }, 'GET', '/@notes/api/apps'))).toEqual(['notes', 'sketch']);
    expect(await ids(await as({ person: 'owner@example.com' }, 'GET', '/api/apps'))).toEqual([
      'default',
      'notes',
      'sketch',
    ]);
  });

  it("lists a provider's JWT the same apps as the person it names", async () => {
    await staffedApps();
    const provider = await oidcProvider();
    const now = Math.floor(Date.now() / 1000);
    const jwt = await provider.sign({
      iss: provider.issuer,
      aud: CLIENT_ID,
      sub: 'ana-sub',
      email: 'ana@example.com',
      email_verified: true,
      iat: now,
      exp: now + 300,
    });
    const res = await fetchWorker(
      'https://lander.test/@notes/api/apps',
      { headers: { authorization: `Bearer ${jwt}` } },
      provider.bindings,
    );
    expect(await ids(res)).toEqual(['notes', 'sketch']);
  });

  it("refuses a key on another app's own host and prefix, and once its app leaves the registry", async () => {
    await env.KV.put(APPS_KEY, JSON.stringify(REGISTRY));
    const made = await call('https://go.notes.test/api/keys', DEV_ADMIN_TOKEN, {
      method: 'POST',
      body: JSON.stringify({ name: 'links', scopes: ['links:read'] }),
    });
    expect(made.status).toBe(201);
    const { key } = (await made.json()) as { key: string };
    expect((await call('https://go.notes.test/api/links', key)).status).toBe(200);
    expect((await call('https://lander.test/@notes/api/links', key)).status).toBe(200);
    // The default app's key on notes' own host, and notes' key on the default app: another app's.
    const own = await call('https://lander.test/api/keys', DEV_ADMIN_TOKEN, {
      method: 'POST',
      body: JSON.stringify({ name: 'links', scopes: ['links:read'] }),
    });
    const { key: defaultKey } = (await own.json()) as { key: string };
    expect((await call('https://go.notes.test/api/links', defaultKey)).status).toBe(403);
    expect((await call('https://lander.test/api/links', key)).status).toBe(403);
    // Notes removed from the registry: its prefix and host are no app, and its key opens no other.
    await env.KV.put(APPS_KEY, JSON.stringify({ apps: [REGISTRY.apps[0]] }));
    expect((await call('https://lander.test/@notes/api/links', key)).status).toBe(404);
    expect((await call('https://go.notes.test/api/links', key)).status).toBe(404);
    expect((await call('https://lander.test/api/links', key)).status).toBe(403);
  });

  it('answers 401 without a caller', async () => {
    expect((await fetchWorker('https://lander.test/api/apps')).status).toBe(401);
  });
});
