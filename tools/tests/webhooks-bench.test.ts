/** The bench's webhook section (tools/bench/webhooks.ts, docs/benchmarks.md) measures real deliveries. */
import { describe, expect, it } from 'vitest';
import type { BenchContext } from '../bench/context.ts';
import { webhooks } from '../bench/webhooks.ts';

describe('the webhook bench', () => {
  it('prints the throughput and the delay p50 / p99 of events it saw arrive', async () => {
    // The section runs its own miniflare and receiver: it reads nothing of the served worker.
    const rows = await webhooks.run({} as BenchContext);
    expect(rows.map((row) => row.name)).toEqual([
      expect.stringContaining('Throughput: 2000 events'),
      expect.stringContaining('Delivery delay at 100 events/s, p50 / p99'),
    ]);
    const [throughput, delay] = rows.map((row) => row.value);
    expect(throughput).toMatch(/^[1-9]\d* events\/s \(\d+\.\d s\)$/);
    const [p50, p99] = (/^(\d+) ms \/ (\d+) ms$/.exec(delay ?? '') ?? []).slice(1).map(Number);
    expect(p50).toBeGreaterThan(0);
    expect(p99).toBeGreaterThanOrEqual(p50 ?? 0);
  }, 120_000);
});
