import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_KEY } from '../../../shared/config/schema.ts';
import { pageCacheStats } from '../../../worker/render/page-cache.ts';
import { UA } from '../../fixtures/agents.ts';
import { get } from '../helpers.ts';

const nonceOf = (res: Response): string =>
  /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';

interface Page {
  res: Response;
  html: string;
  nonce: string;
  /** Whether the page came from the cache. */
  hit: boolean;
}

async function page(path: string, userAgent: string = UA.iPhoneSafari): Promise<Page> {
  const before = pageCacheStats();
  const res = await get(path, { userAgent });
  const html = await res.text();
  const hit = pageCacheStats().hits > before.hits;
  // A render is kept after its response: wait for it, so the next request can find it.
  if (!hit) await vi.waitFor(() => expect(pageCacheStats().kept).toBeGreaterThan(before.kept));
  return { res, html, nonce: nonceOf(res), hit };
}

afterEach(async () => {
  await env.KV.delete(CONFIG_KEY);
});

describe('rendered pages kept per isolate', () => {
  it('answers the second request for a page from the cache', async () => {
    expect((await page('/?channel=hit')).hit).toBe(false);
    expect((await page('/?channel=hit')).hit).toBe(true);
  });

  it('answers the first visitor of a page with the bytes it keeps: neither carries a nonce', async () => {
    const first = await page('/?channel=without-it');
    const second = await page('/?channel=without-it');
    expect(first.hit).toBe(false);
    expect(second.hit).toBe(true);
    expect([first.nonce, second.nonce]).toEqual(['', '']);
    expect(first.html).not.toContain('nonce');
    expect(second.html).toBe(first.html);
  });

  it('gives a kept page the headers of its first render, Server-Timing aside', async () => {
    const first = await page('/?channel=headers');
    const second = await page('/?channel=headers');
    expect(second.hit).toBe(true);
    const headers = (p: Page) => [...p.res.headers].filter(([name]) => name !== 'server-timing');
    expect(headers(second)).toEqual(headers(first));
  });

  it('says in Server-Timing whether the page was rendered or kept, and which page it is', async () => {
    const rendered = (await page('/?channel=timing')).res.headers.get('server-timing') ?? '';
    const kept = (await page('/?channel=timing')).res.headers.get('server-timing') ?? '';
    const id = /^kept;desc=miss, page;desc=([0-9a-z]+)$/.exec(rendered)?.[1];
    expect(id).toBeTruthy();
    expect(kept).toBe(`kept;desc=hit, page;desc=${id}`);
  });

  it('names another page by another id in Server-Timing', async () => {
    const idOf = async (path: string) =>
      /page;desc=([0-9a-z]+)/.exec((await page(path)).res.headers.get('server-timing') ?? '')?.[1];
    const one = await idOf('/?channel=timing-a');
    const other = await idOf('/?channel=timing-b');
    expect(one).toBeTruthy();
    expect(other).toBeTruthy();
    expect(other).not.toBe(one);
  });

  it('never serves one device the page rendered for another', async () => {
    await page('/?channel=devices');
    const android = await page('/?channel=devices', UA.androidChrome);
    const desktop = await page('/?channel=devices', UA.desktop);
    expect([android.hit, desktop.hit]).toEqual([false, false]);
    expect(android.html).toContain('data-os="Android"');
    expect(desktop.html).toContain('data-os="PC"');
  });

  it('serves one kept page to links that differ only in tracking parameters', async () => {
    expect((await page('/landing?channel=tracked&utm_source=mail')).hit).toBe(false);
    const other = await page('/landing?fbclid=IwAR&channel=tracked&gclid=Cj0&utm_source=ad');
    expect(other.hit).toBe(true);
    expect(other.html).not.toMatch(/utm_source|fbclid|gclid/);
  });

  it('serves one kept page to two agents of one verdict', async () => {
    expect((await page('/?channel=verdict', UA.androidChrome)).hit).toBe(false);
    expect((await page('/?channel=verdict', UA.androidChromeReduced)).hit).toBe(true);
  });

  it('keeps the query apart: campaign data of one link never shows on another', async () => {
    await page('/landing?inviter=Ann');
    const other = await page('/landing?inviter=Bo');
    expect(other.html).toContain('Bo');
    expect(other.html).not.toContain('Ann');
  });

  it('renders anew when the configuration the page shows changes', async () => {
    await page('/?channel=config');
    await env.KV.put(
      CONFIG_KEY,
      JSON.stringify({
        revision: 'cache-test',
        appData: [
          { plat: 3, logo_url: '/logo.png', name: 'Kestrel', version: '1.0', size: '1 MB', updated_at: '2026-01-01' },
        ],
        commonConfig: { tagline: 'T', description: 'D' },
      }),
    );
    const after = await page('/?channel=config');
    expect(after.hit).toBe(false);
    expect(after.html).toContain('Kestrel');
  });

  it('answers HEAD for a kept page with its status and no body', async () => {
    await page('/landing?channel=head');
    const res = await get('/landing?channel=head', { method: 'HEAD' });
    expect(res.headers.get('server-timing')).toMatch(/^kept;desc=hit/);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('never keeps a not-found page, and a bot gets the metadata page each time', async () => {
    const before = pageCacheStats();
    for (const userAgent of [UA.iPhoneSafari, UA.googlebot, UA.googlebot]) {
      const res = await get('/no-such-page?channel=bot', { userAgent });
      const html = await res.text();
      expect(res.status).toBe(userAgent === UA.googlebot ? 200 : 404);
      if (userAgent === UA.googlebot) {
        expect(html).toContain('<meta name="robots" content="noindex">');
        expect(html).not.toContain('<script');
      }
    }
    expect(pageCacheStats()).toMatchObject({ hits: before.hits, kept: before.kept });
  });
});
