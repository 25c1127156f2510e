/**
 * A link's preview card served (docs/smart-links.md#previews): `GET /s/<slug>/card.png` through the
 * worker as `wrangler dev` runs it locally (workerd with its D1 and R2 emulation, the migrations
 * applied to a fresh store; the benchmark's own workerd has neither), a drawn 1200×630 card uploaded
 * to a link made through the API, fetched one after another: the link's row, then the card: p95.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unstable_dev } from 'wrangler';
import { applyMigrations } from '../../scripts/lib/d1.ts';
import { drawCard } from '../../scripts/lib/link-card.ts';
import { DEV_ADMIN_TOKEN } from '../../worker/settings.ts';
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
        icon: new Uint8Array(await readFile('public/logo.png')),
      });
      applyMigrations({ local: true, persistTo: state });
      const worker = await unstable_dev('worker/index.ts', {
        config: 'wrangler.toml',
        persistTo: state,
        logLevel: 'error',
        experimental: { disableExperimentalWarning: true, watch: false },
      });
      try {
        const admin = async (path: string, method: string, body: unknown, status: number): Promise<void> => {
          const res = await worker.fetch(path, {
            method,
            headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
        };
        await admin('/api/links', 'POST', { channel: 'bench', slug: SLUG, preview: { image: 'card' } }, 201);
        await admin(`/api/links/${SLUG}/card`, 'PUT', { png: Buffer.from(png).toString('base64') }, 200);
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
