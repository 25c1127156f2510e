/**
 * A link's preview card served (docs/smart-links.md#previews): `GET /s/<slug>/card.png` through the
 * worker as `wrangler dev` runs it locally (workerd with its R2 emulation; the benchmark's own workerd
 * has no R2), a drawn 1200×630 card kept in its R2 under the link, fetched one after another: p95.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPlatformProxy, unstable_dev } from 'wrangler';
import { drawCard } from '../../scripts/lib/link-card.ts';
import { cardKey } from '../../worker/campaign/link-card.ts';
import type { BenchRow, BenchSection } from './context.ts';

const BUDGET_MS = 50;
const REQUESTS = 400;
const SLUG = 'bench-card';

/** The `at` quantile of sorted `times`. */
const quantile = (times: number[], at: number): number =>
  times[Math.min(times.length - 1, Math.floor(times.length * at))] ?? Number.NaN;

export const linkCard: BenchSection = {
  title: "A link's preview card, served from R2 (wrangler dev, one request at a time)",
  async run() {
    const state = await mkdtemp(join(tmpdir(), 'lander-card-'));
    try {
      const png = await drawCard({
        name: 'Pebble Notes',
        title: 'Notes that stay — 留得住的笔记',
        description: 'Free this week: every theme included. 本周免费，所有主题都有。',
        icon: new Uint8Array(await (await import('node:fs/promises')).readFile('public/logo.png')),
      });
      // `wrangler dev` keeps its state under `<persistTo>/v3`; the platform proxy where it is told.
      const proxy = await getPlatformProxy<Env>({ configPath: 'wrangler.toml', persist: { path: join(state, 'v3') } });
      await proxy.env.EXPORTS.put(cardKey('default', SLUG), png, { httpMetadata: { contentType: 'image/png' } });
      await proxy.dispose();
      const worker = await unstable_dev('worker/index.ts', {
        config: 'wrangler.toml',
        persistTo: state,
        logLevel: 'error',
        experimental: { disableExperimentalWarning: true },
      });
      try {
        const times: number[] = [];
        let bytes = 0;
        for (let i = 0; i < REQUESTS + 40; i += 1) {
          const start = performance.now();
          const res = await worker.fetch(`/s/${SLUG}/card.png`);
          const body = await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`/s/${SLUG}/card.png answered ${res.status}`);
          // The first 40 warm the isolate and the connection.
          if (i >= 40) times.push(performance.now() - start);
          bytes = body.byteLength;
        }
        times.sort((a, b) => a - b);
        const p95 = quantile(times, 0.95);
        const row: BenchRow = {
          name: `GET /s/<slug>/card.png (${bytes.toLocaleString('en-US')} B card), p50 ${quantile(times, 0.5).toFixed(1)} ms`,
          value: `${p95.toFixed(1)} ms p95`,
          budget: { limit: `≤ ${BUDGET_MS} ms`, ok: p95 <= BUDGET_MS },
        };
        return [row];
      } finally {
        await worker.stop();
      }
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  },
};
