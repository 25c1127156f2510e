import { describe, expect, it, vi } from 'vitest';
import { pageCacheStats } from '../../worker/render/page-cache.ts';
import { UA } from '../fixtures/agents.ts';
import { get } from './helpers.ts';

const nonceOf = (res: Response): string =>
  /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';

/**
 * Resolves once the request that started at `before` has left its mark: a hit, or its page kept
 * (the copy is stored after the response, in `waitUntil`), so the next request sees it.
 */
async function settled(before: ReturnType<typeof pageCacheStats>): Promise<void> {
  await vi.waitFor(() => {
    const now = pageCacheStats();
    if (now.hits === before.hits && now.kept === before.kept) throw new Error('the page is not kept yet');
  });
}

async function page(path: string, userAgent: string = UA.iPhoneSafari): Promise<{ html: string; nonce: string }> {
  const before = pageCacheStats();
  const res = await get(path, { userAgent });
  const html = await res.text();
  await settled(before);
  return { html, nonce: nonceOf(res) };
}

describe('rendered pages kept per isolate', () => {
  it('serves the same bytes twice except for a fresh nonce that matches the CSP header', async () => {
    const first = await page('/?from=cache-test');
    const before = pageCacheStats();
    const second = await page('/?from=cache-test');
    expect(pageCacheStats().hits).toBe(before.hits + 1);
    expect(first.nonce).not.toBe(second.nonce);
    expect(second.html).toContain(`nonce="${second.nonce}"`);
    expect(second.html).not.toContain(first.nonce);
    expect(second.html.replaceAll(second.nonce, 'N')).toBe(first.html.replaceAll(first.nonce, 'N'));
  });

  it('never serves one device the page rendered for another', async () => {
    await page('/?from=devices');
    const before = pageCacheStats();
    const android = await page('/?from=devices', UA.androidChrome);
    const desktop = await page('/?from=devices', UA.desktop);
    expect(android.html).toContain('data-os="Android"');
    expect(desktop.html).toContain('data-os="PC"');
    expect(pageCacheStats().hits).toBe(before.hits);
    expect(pageCacheStats().kept).toBe(before.kept + 2);
  });

  it('keeps the query apart: campaign data of one link never shows on another', async () => {
    await page('/landing?inviter=Ann');
    const other = await page('/landing?inviter=Bo');
    expect(other.html).toContain('Bo');
    expect(other.html).not.toContain('Ann');
  });

  it('answers a kept page whole once the app has served it from the cache: same headers, fresh nonce', async () => {
    const path = '/?from=whole-page';
    const responses: Response[] = [];
    const bodies: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const before = pageCacheStats();
      const res = await get(path);
      bodies.push(await res.text());
      responses.push(res);
      await settled(before);
      // Rendered, then served from the kept page by the app, then answered before the app ran.
      expect(pageCacheStats().whole - before.whole).toBe(i === 2 ? 1 : 0);
    }
    const [, second, third] = responses as [Response, Response, Response];
    const nonces = responses.map(nonceOf);
    expect(new Set(nonces).size).toBe(3);
    const headers = (res: Response, nonce: string) =>
      [...res.headers].map(([name, value]) => `${name}: ${value.replaceAll(nonce, 'N')}`);
    expect(headers(third, nonces[2] ?? '')).toEqual(headers(second, nonces[1] ?? ''));
    expect(third.headers.get('content-security-policy')).toContain(`'nonce-${nonces[2]}'`);
    expect(bodies[2]).toContain(`nonce="${nonces[2]}"`);
    expect(bodies[2]?.replaceAll(nonces[2] ?? '', 'N')).toBe(bodies[1]?.replaceAll(nonces[1] ?? '', 'N'));
  });

  it('still runs the app for other agents, HEAD, and a bot asking for a kept error page', async () => {
    const path = '/no-such-page?from=whole-404';
    for (let i = 0; i < 3; i += 1) await page(path);
    const before = pageCacheStats();
    const bot = await get(path, { userAgent: UA.googlebot });
    // A bot never gets an error page: the metadata page, from the app.
    expect(bot.status).toBe(200);
    expect((await get(path, { method: 'HEAD' })).status).toBe(404);
    const android = await get(path, { userAgent: UA.androidChrome });
    expect(android.status).toBe(404);
    expect(await android.text()).toContain('data-os="Android"');
    expect(pageCacheStats().whole).toBe(before.whole);
    expect((await get(path)).status).toBe(404);
    expect(pageCacheStats().whole).toBe(before.whole + 1);
  });
});
