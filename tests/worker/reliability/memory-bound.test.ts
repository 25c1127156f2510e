/**
 * Per-isolate memory stays within its byte budget (docs/decisions/005-keep-rendered-pages-per-isolate.md):
 * a soak of unique 2 kB page addresses from unique agents fills every cache (pages, devices, QR codes) past its
 * share, and what the isolate keeps never passes `ISOLATE_CACHE_BUDGET`.
 */
import { describe, expect, it, vi } from 'vitest';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { CACHE_SHARES, ISOLATE_CACHE_BUDGET, isolateCacheBytes } from '../../../worker/lib/bounded-cache.ts';
import { pageCacheStats } from '../../../worker/render/page-cache.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { get } from '../helpers.ts';

const REQUESTS = 900;
// A long signed campaign token (~1.7 kB), the same on every request.
const TOKEN = encryptToken(
  JSON.stringify(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, 'v'.repeat(240)]))),
  DEV_DECODE_KEY,
);

describe('per-isolate memory', () => {
  it('stays within the budget under a soak of unique 2 kB page addresses from unique agents', async () => {
    const kept = pageCacheStats().kept;
    let largest = 0;
    for (let i = 0; i < REQUESTS; i += 1) {
      const agent = i % 3 === 0 ? UA.iPhoneSafari : UA.desktop;
      // Each address is its own page (a token, channel and inviter, ~2 kB); the fbclid no page reads.
      const res = await get(`/?d=${TOKEN}&channel=${i}&inviter=${'x'.repeat(250)}&fbclid=${'F'.repeat(1700)}`, {
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
