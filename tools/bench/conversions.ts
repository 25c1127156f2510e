/**
 * Conversions out (docs/conversions.md#delivery, docs/benchmarks.md): Lander's queue handler on
 * miniflare (its Queues and D1 inside workerd) sending installs to a postback destination on
 * 127.0.0.1, with the conversion queue's development settings (batches of 100, a 1 s window, 7
 * retries). Each install is measured from its time to its arrival, through both queue hops (the
 * fan-out, then the delivery): first with a healthy receiver, then with one that answers 503 to 30 %
 * of requests, which the queue retries on the webhooks' schedule (the first retry after 5 s). The
 * budget: p95 under 60 s.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { unstable_readConfig } from 'wrangler';
import { ROOT } from '../../scripts/lib/run.ts';
import type { BenchRow, BenchSection } from './context.ts';
import { migrationSql, percentile } from './local-d1.ts';

const RATE = 50;
const SECONDS = 4;
const BATCH_TIMEOUT = 1;
const BUDGET_MS = 60_000;

/**
 * One measurement: `RATE` installs a second for `SECONDS`, the receiver failing `failRate` of
 * requests; waits for every install at most `waitMs` after the last was queued. Answers the delays of
 * those that arrived, sorted, and how many were queued.
 */
async function measure(failRate: number, waitMs: number): Promise<{ delays: number[]; count: number }> {
  const arrivals = new Map<string, number>();
  const receiver = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://bench');
    if (Math.random() < failRate) {
      response.writeHead(503).end();
      return;
    }
    const id = url.searchParams.get('id') ?? '';
    if (!arrivals.has(id)) arrivals.set(id, Date.now() - Number(url.searchParams.get('at')));
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const script = join(ROOT, 'dist/bench/conversions-worker.js');
  await build({
    entryPoints: [join(ROOT, 'tools/bench/workers/conversions.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import'],
    outfile: script,
    logLevel: 'warning',
    // The worker's Durable Object classes come with its queue handler; workerd provides their module.
    external: ['cloudflare:*'],
  });
  const wrangler = unstable_readConfig({ config: join(ROOT, 'wrangler.toml') });
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      scriptPath: script,
      compatibilityDate: wrangler.compatibility_date,
      compatibilityFlags: wrangler.compatibility_flags,
      bindings: { ...wrangler.vars, LANDER_ENV: 'development' },
      d1Databases: ['FUNNEL_DB'],
      queueProducers: { CONVERSION_QUEUE: 'bench-conversions' },
      queueConsumers: { 'bench-conversions': { maxBatchSize: 100, maxBatchTimeout: BATCH_TIMEOUT, maxRetries: 7 } },
    }),
  );
  try {
    const url = (await mf.ready).origin;
    const port = (receiver.address() as AddressInfo).port;
    const setup = await fetch(`${url}/setup?url=${encodeURIComponent(`http://127.0.0.1:${port}/pb`)}`, {
      method: 'POST',
      body: migrationSql(),
    });
    if (!setup.ok) throw new Error(`setup: ${setup.status} ${await setup.text()}`);
    const perTick = RATE / 10;
    for (let tick = 0; tick < SECONDS * 10; tick += 1) {
      await fetch(`${url}/emit?n=${perTick}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const count = RATE * SECONDS;
    const deadline = Date.now() + waitMs;
    while (arrivals.size < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return { delays: [...arrivals.values()].sort((a, b) => a - b), count };
  } finally {
    await mf.dispose();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

export const conversions: BenchSection = {
  title: 'Conversions out (install → platform)',
  async run(): Promise<BenchRow[]> {
    const healthy = await measure(0, 120_000);
    if (healthy.delays.length < healthy.count) {
      throw new Error(`only ${healthy.delays.length} of ${healthy.count} installs arrived`);
    }
    const p95 = percentile(healthy.delays, 95);
    // With 30 % failing, 9 % fail twice and wait the schedule's second delay (5 min): the share
    // delivered within the budget is the figure, not a p95 the schedule itself puts past it.
    const failing = await measure(0.3, BUDGET_MS);
    const within = failing.delays.filter((delay) => delay < BUDGET_MS).length;
    return [
      {
        name: `Install → delivery at ${RATE}/s, healthy platform, p50 / p95`,
        value: `${percentile(healthy.delays, 50)} ms / ${p95} ms`,
        budget: { limit: `p95 < ${BUDGET_MS / 1000} s`, ok: p95 < BUDGET_MS },
      },
      {
        name: `Install → delivery at ${RATE}/s, 30 % answered 503: within ${BUDGET_MS / 1000} s, p50`,
        value: `${((100 * within) / failing.count).toFixed(1)} % (${within} of ${failing.count}), ${percentile(failing.delays, 50)} ms`,
      },
    ];
  },
};
