import { describe, expect, it } from 'vitest';
import { pageCacheStats } from '../../worker/render/page-cache.ts';
import { AGENTS, get } from './helpers.ts';

const nonceOf = (res: Response): string =>
  /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';

async function page(path: string, userAgent: string = AGENTS.iPhone): Promise<{ html: string; nonce: string }> {
  const res = await get(path, { userAgent });
  const html = await res.text();
  // Let the cache copy finish before the next request.
  await new Promise((resolve) => setTimeout(resolve, 20));
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
    const android = await page('/?from=devices', AGENTS.android);
    const desktop = await page('/?from=devices', AGENTS.desktop);
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
});
