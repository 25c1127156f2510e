/**
 * Webhook delivery (docs/webhooks.md, docs/benchmarks.md): Lander's queue handler on miniflare (its
 * Queues and D1 inside workerd, as in production) delivering signed app events to a healthy receiver
 * on 127.0.0.1. Throughput: a burst of events queued at once, delivered per second. Delay: events
 * queued at a steady rate, each measured from its timestamp to its arrival — through both queue hops
 * (the event's fan-out, then its delivery), each waiting up to its batch window.
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

const BURST = 2_000;
const RATE = 100;
const STEADY_SECONDS = 5;
/** The batch window of the bench's queue, as wrangler.toml's development consumer (1 s). */
const BATCH_TIMEOUT = 1;

export const webhooks: BenchSection = {
  title: 'Webhook delivery (queue → receiver)',
  async run(): Promise<BenchRow[]> {
    const arrivals: { at: number; sent: number }[] = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
        arrivals.push({ at: Date.now(), sent: Date.parse(payload.timestamp) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const script = join(ROOT, 'dist/bench/webhooks-worker.js');
    await build({
      entryPoints: [join(ROOT, 'tools/bench/workers/webhooks.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['workerd', 'worker', 'import'],
      // The runtime's own modules (the ledger's Durable Object base, reached through the queues' consumers).
      external: ['cloudflare:*'],
      outfile: script,
      logLevel: 'warning',
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
        queueProducers: { WEBHOOK_QUEUE: 'bench-webhooks' },
        queueConsumers: { 'bench-webhooks': { maxBatchSize: 100, maxBatchTimeout: BATCH_TIMEOUT, maxRetries: 7 } },
      }),
    );
    try {
      const url = (await mf.ready).origin;
      const port = (receiver.address() as AddressInfo).port;
      const setup = await fetch(`${url}/setup?url=${encodeURIComponent(`http://127.0.0.1:${port}/hook`)}`, {
        method: 'POST',
        body: migrationSql(),
      });
      if (!setup.ok) throw new Error(`setup: ${setup.status} ${await setup.text()}`);

      const waitFor = async (count: number) => {
        const deadline = Date.now() + 120_000;
        while (arrivals.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        if (arrivals.length < count) throw new Error(`only ${arrivals.length} of ${count} events arrived`);
      };
      const started = Date.now();
      await fetch(`${url}/emit?n=${BURST}`);
      await waitFor(BURST);
      const burstSeconds = (Math.max(...arrivals.map((a) => a.at)) - started) / 1000;

      arrivals.length = 0;
      const perTick = RATE / 10;
      for (let tick = 0; tick < STEADY_SECONDS * 10; tick += 1) {
        await fetch(`${url}/emit?n=${perTick}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await waitFor(RATE * STEADY_SECONDS);
      const delays = arrivals.map((a) => a.at - a.sent).sort((a, b) => a - b);
      return [
        {
          name: `Throughput: ${BURST} events queued at once, delivered`,
          value: `${(BURST / burstSeconds).toFixed(0)} events/s (${burstSeconds.toFixed(1)} s)`,
        },
        {
          name: `Delivery delay at ${RATE} events/s, p50 / p99 (two queue hops, ${BATCH_TIMEOUT} s batch window)`,
          value: `${percentile(delays, 50)} ms / ${percentile(delays, 99)} ms`,
        },
      ];
    } finally {
      await mf.dispose();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  },
};
