/**
 * What counting a page view costs (docs/operators.md): `/` for the same kept page, counted and not.
 * A prefetch (`Sec-Purpose: prefetch`) takes the very same path and is never counted, so the two
 * differ by the counting alone: building the event, the daily visitor hash and the queue send (a
 * sink service here). Three rounds, counted then not, and the median of the differences. And what
 * the queue's consumer asks of D1 for 1,000 views.
 */
import { writeRollup } from '../../worker/funnel/consume-batch.ts';
import { type FunnelMessage, NO_DIMENSIONS } from '../../worker/funnel/events.ts';
import { messageOf } from '../../worker/funnel/record-event.ts';
import type { BenchSection } from './context.ts';
import { IPHONE_UA } from './context.ts';
import { load } from './load.ts';
import { cpuSeconds } from './machine.ts';

const ROUNDS = 3;
/** The consumer's batch size (wrangler.toml `max_batch_size`). */
const QUEUE_BATCH = 100;

/**
 * D1 statements the consumer makes for 1,000 page views of 1,000 visitors in full queue batches,
 * counted on a D1 stand-in that answers every read with no rows (nothing counted yet).
 */
async function statementsPer1000Views(): Promise<number> {
  let statements = 0;
  const statement = { bind: () => statement, all: async () => ({ results: [] }) };
  const db = {
    prepare: () => {
      statements += 1;
      return statement;
    },
    batch: async () => [],
  } as unknown as D1Database;
  const env = { LANDER_ENV: 'development' } as unknown as Env;
  const views: FunnelMessage[] = await Promise.all(
    Array.from({ length: 1000 }, (_, i) =>
      messageOf(env, {
        event: { type: 'view', page: 'download' },
        dims: { ...NO_DIMENSIONS, channel: `c${i % 20}` },
        visitor: { address: `198.51.100.${i % 250}`, agent: `agent-${i}` },
      }),
    ),
  );
  for (let at = 0; at < views.length; at += QUEUE_BATCH) await writeRollup(db, views.slice(at, at + QUEUE_BATCH));
  return statements;
}

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
    const statements = await statementsPer1000Views();
    return [
      {
        name: `D1 statements per 1,000 views (queue batches of ${QUEUE_BATCH})`,
        value: String(statements),
      },
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
