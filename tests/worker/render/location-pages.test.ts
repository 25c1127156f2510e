/**
 * Kept pages shared by the isolates of a location (docs/decisions/010-share-kept-pages-across-isolates.md),
 * on workerd's real Cache API. An isolate that has not kept a page is one whose own keys do not name
 * it: here, a configuration document written anew with the same content is a new object, so this
 * isolate's key is new (page-cache.ts keys by identity) while the location's key (by content) is not —
 * the state of a fresh isolate of the same deploy.
 */
import { env, exports } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_KEY } from '../../../shared/config/schema.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import type { StatsResult } from '../../../worker/funnel/stats-query.ts';
import { locationPage, locationStats, shareWithLocation } from '../../../worker/render/location-pages.ts';
import { pageCacheStats } from '../../../worker/render/page-cache.ts';
import { DEV_ADMIN_TOKEN, DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { freshChannel } from '../funnel-fixtures.ts';
import { fetchWorker, get, ORIGIN } from '../helpers.ts';

const CONFIG = {
  revision: 'location-test',
  appData: [{ plat: 3, logo_url: '/logo.png', name: 'Plover', version: '1.0', size: '1 MB', updated_at: '2026-01-01' }],
  commonConfig: { tagline: 'T', description: 'D' },
};

const timingOf = (res: Response): string => res.headers.get('server-timing') ?? '';

/** Renders `path` once and waits until the page is kept by this isolate and by the location. */
async function renderAndShare(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const stored = locationStats().stored;
  const res = await get(path, { userAgent: UA.iPhoneSafari, headers });
  expect(timingOf(res)).toMatch(/^kept;desc=miss/);
  await vi.waitFor(() => expect(locationStats().stored).toBeGreaterThan(stored));
  return res;
}

afterEach(async () => {
  await env.KV.delete(CONFIG_KEY);
});

describe('kept pages shared by the isolates of a location', () => {
  it('answers a page another isolate kept without rendering it, then keeps it in this isolate', async () => {
    await env.KV.put(CONFIG_KEY, JSON.stringify(CONFIG));
    await renderAndShare('/?channel=shared');
    const kept = await get('/?channel=shared');
    const keptHtml = await kept.text();
    expect(timingOf(kept)).toMatch(/^kept;desc=hit/);

    // The same configuration written anew: a new object, so a key this isolate has never kept.
    await env.KV.put(CONFIG_KEY, JSON.stringify(CONFIG, null, 2));
    const rendersBefore = pageCacheStats().kept;
    const shared = await get('/?channel=shared');
    const sharedHtml = await shared.text();
    expect(timingOf(shared)).toMatch(/^kept;desc=shared, page;desc=[0-9a-z]+$/);
    expect(sharedHtml).toBe(keptHtml);
    const withoutTiming = (res: Response) => [...res.headers].filter(([name]) => name !== 'server-timing');
    expect(withoutTiming(shared)).toEqual(withoutTiming(kept));
    expect(shared.headers.get('content-security-policy')).not.toContain('nonce');
    expect(shared.headers.get('set-cookie')).toBeNull();

    const again = await get('/?channel=shared');
    expect(timingOf(again)).toMatch(/^kept;desc=hit/);
    expect(await again.text()).toBe(keptHtml);
    expect(pageCacheStats().kept).toBe(rendersBefore);
  });

  it("counts a view of a page another isolate kept, under the visitor's own language", async () => {
    const channel = freshChannel();
    const path = `/landing?d=${encryptToken(JSON.stringify({ channel, inviter: 'Ann' }), DEV_DECODE_KEY)}`;
    await env.KV.put(CONFIG_KEY, JSON.stringify(CONFIG));
    await renderAndShare(path, { 'accept-language': 'en-US' });
    await env.KV.put(CONFIG_KEY, JSON.stringify(CONFIG, null, 1));
    const shared = await get(path, { headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
    await shared.text();
    expect(timingOf(shared)).toMatch(/^kept;desc=shared/);
    const byLang = async () => {
      const res = await exports.default.fetch(
        new Request(`${ORIGIN}/api/stats?by=lang&channel=${channel}`, {
          headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` },
        }),
      );
      const { rows } = (await res.json()) as StatsResult;
      return rows.map((row) => `${row.key} ${row.views}`).sort();
    };
    await expect.poll(byLang, { timeout: 20_000 }).toEqual(['en 1', 'fr 1']);
  });

  it('never answers a page kept for another configuration, device or address', async () => {
    await env.KV.put(CONFIG_KEY, JSON.stringify(CONFIG));
    await renderAndShare('/?channel=apart');
    await env.KV.put(CONFIG_KEY, JSON.stringify({ ...CONFIG, commonConfig: { tagline: 'Other', description: 'D' } }));
    expect(timingOf(await get('/?channel=apart'))).toMatch(/^kept;desc=miss/);
    expect(timingOf(await get('/?channel=apart', { userAgent: UA.androidChrome }))).toMatch(/^kept;desc=miss/);
    expect(timingOf(await get('/?channel=apart-too'))).toMatch(/^kept;desc=miss/);
  });

  it('never answers a page another deploy kept', async () => {
    await env.KV.put(CONFIG_KEY, JSON.stringify(CONFIG));
    await renderAndShare('/?channel=deploys');
    await env.KV.put(CONFIG_KEY, JSON.stringify(CONFIG, null, 3));
    const otherDeploy = { CF_VERSION_METADATA: { id: 'another-deploy', tag: '', timestamp: '' } };
    const res = await fetchWorker(
      `${ORIGIN}/?channel=deploys`,
      { headers: { 'user-agent': UA.iPhoneSafari } },
      otherDeploy,
    );
    await res.text();
    expect(timingOf(res)).toMatch(/^kept;desc=miss/);
  });

  it('reads back what it keeps: status, headers, view and bytes', async () => {
    const key = 'https://lander.test/.lander/kept-page/round-trip';
    const page = {
      status: 200,
      body: new TextEncoder().encode('<!doctype html><p>页面\n</p>') as Uint8Array<ArrayBuffer>,
      headers: [['content-type', 'text/html; charset=utf-8']] as [string, string][],
      view: null,
    };
    await shareWithLocation(key, page);
    const found = await locationPage(key, 5_000);
    expect(found?.status).toBe(200);
    expect(found?.headers).toEqual(page.headers);
    expect(found?.view).toBeNull();
    expect(new TextDecoder().decode(found?.body)).toBe('<!doctype html><p>页面\n</p>');
  });

  it('takes a missing or broken entry for a miss, never an error', async () => {
    expect(await locationPage('https://lander.test/.lander/kept-page/never-kept', 5_000)).toBeUndefined();
    // Entries no isolate would write, in a cache of their own (the page's cache is `caches.default`).
    const cache = await caches.open('broken-entries');
    const entry = (body: string) => new Response(body, { headers: { 'cache-control': 'max-age=60' } });
    await cache.put('https://lander.test/.lander/kept-page/broken', entry('{"status":"x"}\n<p>'));
    expect(await locationPage('https://lander.test/.lander/kept-page/broken', 5_000, cache)).toBeUndefined();
    await cache.put('https://lander.test/.lander/kept-page/not-json', entry('<p>\n</p>'));
    expect(await locationPage('https://lander.test/.lander/kept-page/not-json', 5_000, cache)).toBeUndefined();
    await cache.put('https://lander.test/.lander/kept-page/good', entry('{"status":200,"headers":[]}\n<p>'));
    expect((await locationPage('https://lander.test/.lander/kept-page/good', 5_000, cache))?.status).toBe(200);
  });

  it('renders rather than wait past its budget for a cache that is slow or fails', async () => {
    // The Cache API as a slow location would answer it: not within the budget (a fault, as kv-faults.test.ts injects).
    const slow = { match: () => new Promise<undefined>((resolve) => setTimeout(resolve, 2_000)) };
    const started = performance.now();
    expect(await locationPage('https://lander.test/.lander/kept-page/late', 15, slow)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
    const failing = { match: () => Promise.reject(new Error('cache unavailable')) };
    expect(await locationPage('https://lander.test/.lander/kept-page/failing', 15, failing)).toBeUndefined();
  });
});
