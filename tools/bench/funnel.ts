/**
 * What counting a page view costs (docs/operators.md): `/` for the same kept page, counted and not.
 * A prefetch (`Sec-Purpose: prefetch`) takes the very same path and is never counted, so the two
 * differ by the counting alone: building the event, the daily visitor hash and the queue send (a
 * sink service here). Three rounds, counted then not, and the median of the differences.
 */
import type { BenchSection } from './context.ts';
import { IPHONE_UA } from './context.ts';
import { load } from './load.ts';
import { cpuSeconds } from './machine.ts';

const ROUNDS = 3;

export const funnel: BenchSection = {
  title: 'Counting page views (funnel)',
  async run({ url, server, duration, connections, threads }) {
    const base = { 'user-agent': IPHONE_UA, 'accept-language': 'en-US,en;q=0.9' };
    const cpuPerRequest = async (headers: Record<string, string>): Promise<number> => {
      const options = { url: `${url}/`, connections, threads, headers };
      await load({ ...options, duration: 2 });
      const before = cpuSeconds(server.pid) ?? 0;
      const result = await load({ ...options, duration });
      const after = cpuSeconds(server.pid) ?? 0;
      return ((after - before) * 1000) / Math.max(1, result.requests);
    };
    const rounds: { counted: number; uncounted: number }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const counted = await cpuPerRequest(base);
      const uncounted = await cpuPerRequest({ ...base, 'sec-purpose': 'prefetch' });
      rounds.push({ counted, uncounted });
    }
    const differences = rounds.map((r) => r.counted - r.uncounted).sort((a, b) => a - b);
    const median = differences[Math.floor(ROUNDS / 2)] ?? Number.NaN;
    return [
      {
        name: 'GET / counted, CPU per request (rounds)',
        value: rounds.map((r) => `${r.counted.toFixed(3)} ms`).join(', '),
      },
      {
        name: 'GET / as a prefetch (not counted), CPU (rounds)',
        value: rounds.map((r) => `${r.uncounted.toFixed(3)} ms`).join(', '),
      },
      {
        name: `Counting adds per view (median of ${ROUNDS})`,
        value: `${median.toFixed(3)} ms CPU`,
        budget: { limit: '≤ 0.05 ms', ok: median <= 0.05 },
      },
    ];
  },
};
