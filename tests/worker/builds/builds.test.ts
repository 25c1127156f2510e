import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KV_LATEST_BUILD, kvBuildManifestKey } from '../../../shared/build-manifest.ts';
import { routeRules } from '../../../shared/route-rules.ts';
import { fetchWorker, get, handoffOf, ORIGIN } from '../helpers.ts';

const carried = handoffOf(await (await get('/')).text()).handoff.buildId as string;

const OTHER = { id: 'other-build-0001', timestamp: 1_700_000_000_000 };
const OTHER_MANIFEST = { ...OTHER, matcher: [{ path: '/elsewhere', redirect: { to: 'https://example.com/' } }] };

/** A KV namespace whose every read fails, as during an outage. */
const failingKv = {
  get: async () => {
    throw new Error('KV unavailable');
  },
} as unknown as KVNamespace;

const withKv = (path: string, kv: KVNamespace) => fetchWorker(`${ORIGIN}${path}`, {}, { ...env, KV: kv });

afterEach(async () => {
  await env.KV.delete(KV_LATEST_BUILD);
  await env.KV.delete(kvBuildManifestKey(OTHER.id));
  await env.KV.delete(kvBuildManifestKey(carried));
});

describe('GET /assets/builds/latest.json', () => {
  it('answers the latest build from KV', async () => {
    await env.KV.put(KV_LATEST_BUILD, JSON.stringify(OTHER));
    const res = await get(`/assets/builds/latest.json?${Date.now()}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(OTHER);
  });

  it('answers the carried build while KV has none', async () => {
    const res = await get('/assets/builds/latest.json');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; timestamp: number };
    expect(body.id).toBe(carried);
    expect(body.timestamp).toBeGreaterThan(0);
  });

  it('is never cached, whatever the query', async () => {
    for (const query of ['', '?1700000000000', '?x=<script>']) {
      const res = await get(`/assets/builds/latest.json${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('answers the carried build when KV throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await withKv('/assets/builds/latest.json', failingKv);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe(carried);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers the carried build when KV holds something malformed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await env.KV.put(KV_LATEST_BUILD, '{"id":"../../x","timestamp":"soon"}');
    const res = await get('/assets/builds/latest.json');
    expect(((await res.json()) as { id: string }).id).toBe(carried);
  });
});

describe('GET /assets/builds/meta/{id}.json', () => {
  it("answers a build's manifest from KV, cached as immutable", async () => {
    await env.KV.put(kvBuildManifestKey(OTHER.id), JSON.stringify(OTHER_MANIFEST));
    const res = await get(`/assets/builds/meta/${OTHER.id}.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(OTHER_MANIFEST);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers the carried manifest, with the route rules as its matcher, while KV has none', async () => {
    const res = await get(`/assets/builds/meta/${carried}.json`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; matcher: unknown };
    expect(body.id).toBe(carried);
    expect(body.matcher).toEqual(routeRules);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('prefers the KV copy of the carried build when there is one', async () => {
    const stored = { id: carried, timestamp: 1, matcher: [] };
    await env.KV.put(kvBuildManifestKey(carried), JSON.stringify(stored));
    expect(await (await get(`/assets/builds/meta/${carried}.json`)).json()).toEqual(stored);
  });

  it('answers an unknown id with 404', async () => {
    const res = await get('/assets/builds/meta/no-such-build.json');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toEqual({ error: 'Unknown build' });
  });

  it('answers a malformed id or file name with 404, without reflecting it', async () => {
    for (const path of [
      '/assets/builds/meta/%3Cimg%20src%3Dx%3E.json',
      `/assets/builds/meta/${carried}`,
      `/assets/builds/meta/${'a'.repeat(65)}.json`,
      '/assets/builds/meta/.json',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain('<img');
    }
  });

  it('answers the carried manifest when KV throws, immutable only under its own id', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const own = await withKv(`/assets/builds/meta/${carried}.json`, failingKv);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { id: string }).id).toBe(carried);
    expect(own.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const other = await withKv(`/assets/builds/meta/${OTHER.id}.json`, failingKv);
    expect(other.status).toBe(200);
    expect(((await other.json()) as { id: string }).id).toBe(carried);
    expect(other.headers.get('cache-control')).toBe('no-store');
  });

  it('answers HEAD like GET', async () => {
    const res = await get(`/assets/builds/meta/${carried}.json`, { method: 'HEAD' });
    expect(res.status).toBe(200);
  });
});
