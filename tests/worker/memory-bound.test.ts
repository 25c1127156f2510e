/**
 * Per-isolate memory stays within its byte budget (docs/decisions/005-keep-rendered-pages-per-isolate.md):
 * a soak of unique 2 kB URLs from unique agents fills every cache (pages, devices, QR codes) past its
 * share, and what the isolate keeps never passes `ISOLATE_CACHE_BUDGET`.
 */
import { describe, expect, it, vi } from 'vitest';
import { CACHE_SHARES, ISOLATE_CACHE_BUDGET, isolateCacheBytes } from '../../worker/lib/bounded-cache.ts';
import { pageCacheStats } from '../../worker/render/page-cache.ts';
import { UA } from '../fixtures/agents.ts';
import { get } from './helpers.ts';

const REQUESTS = 900;

describe('per-isolate memory', () => {
  it('stays within the budget under a soak of unique 2 kB URLs from unique agents', async () => {
    const kept = pageCacheStats().kept;
    let largest = 0;
    for (let i = 0; i < REQUESTS; i += 1) {
      const agent = i % 3 === 0 ? UA.iPhoneSafari : UA.desktop;
      const res = await get(`/?n=${i}&note=${'x'.repeat(250)}&fbclid=${'F'.repeat(1700)}`, {
        userAgent: `${agent} Soak/${i}`,
      });
      expect(res.status).toBe(200);
      await res.text();
      largest = Math.max(largest, isolateCacheBytes());
    }
    // Pages are kept after their response; wait for the last ones before reading the totals.
    await vi.waitFor(() => expect(pageCacheStats().kept - kept).toBeGreaterThanOrEqual(REQUESTS - 5));
    largest = Math.max(largest, isolateCacheBytes());
    expect(largest).toBeLessThanOrEqual(ISOLATE_CACHE_BUDGET);
    // The soak asked for more than the pages' share: older pages were let go, not kept beyond it.
    expect(pageCacheStats().entries).toBeLessThan(REQUESTS);
    expect(largest).toBeGreaterThan(CACHE_SHARES.pages * 0.9);
  }, 180_000);
});
