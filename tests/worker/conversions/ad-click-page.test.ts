/**
 * A page reached from an ad (docs/conversions.md#ad-click-ids): its address carries the ad network's
 * click parameters, which the page's cache key never reads, so the page kept for the plain address is
 * the one answered, and no click id is written into the page (the click beacon reads it from the
 * address in the browser).
 */
import { describe, expect, it, vi } from 'vitest';
import { AD_CLICK_PARAM_NAMES } from '../../../shared/ad-clicks.ts';
import { pageCacheStats } from '../../../worker/render/page-cache.ts';
import { UA } from '../../fixtures/agents.ts';
import { get } from '../helpers.ts';

async function page(path: string): Promise<{ html: string; hit: boolean }> {
  const before = pageCacheStats();
  const res = await get(path, { userAgent: UA.iPhoneSafari });
  const html = await res.text();
  const hit = pageCacheStats().hits > before.hits;
  if (!hit) await vi.waitFor(() => expect(pageCacheStats().kept).toBeGreaterThan(before.kept));
  return { html, hit };
}

describe('a page reached from an ad', () => {
  it('is the kept page whatever ad click parameters its address carries', async () => {
    const plain = await page('/?channel=from-an-ad');
    for (const param of AD_CLICK_PARAM_NAMES) {
      const value = `${param}-AbC123_${crypto.randomUUID()}`;
      const fromAd = await page(`/?channel=from-an-ad&${param}=${encodeURIComponent(value)}`);
      expect(fromAd.hit, param).toBe(true);
      expect(fromAd.html).toBe(plain.html);
      expect(fromAd.html).not.toContain(value);
    }
    const every = AD_CLICK_PARAM_NAMES.map((param) => `${param}=x${param}`).join('&');
    expect((await page(`/?${every}&channel=from-an-ad`)).hit).toBe(true);
  });
});
