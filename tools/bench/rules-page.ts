/**
 * The kept page with rules (docs/smart-links.md#speed): a short link's kept page, `GET /s/<slug>` for
 * one iPhone, its CPU per request when the link has 100 rules none of which holds (so every rule is
 * tried and the page is served) ÷ the same link without rules; budget ≤ 1.1. The bench's own workerd
 * has no D1, so the worker runs as `wrangler dev` runs it (workerd with its D1 emulation, the
 * migrations applied to a fresh store); the CPU is that workerd process's, which also carries the
 * local proxy in front of the worker: the same for both links, it is in both sides of the ratio.
 * Rounds alternate which link goes first; the median round's ratio is reported.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unstable_dev } from 'wrangler';
import { applyMigrations } from '../../scripts/lib/d1.ts';
import type { LinkRule } from '../../shared/link-rules.ts';
import { DEV_ADMIN_TOKEN } from '../../worker/settings.ts';
import { type BenchContext, type BenchRow, type BenchSection, IPHONE_UA } from './context.ts';
import { budgetRow } from './http-targets.ts';
import { describeLoad, type LoadResult, load } from './load.ts';
import { cpuSeconds } from './machine.ts';
import { hundredRules } from './rules.ts';

const ROUNDS = 5;
/** The budget: a link's 100 rules cost its kept page at most this many times the page's CPU without them. */
export const RULES_PAGE_BUDGET = 1.1;

/** 100 rules of the shapes a marketer writes, none of which holds for the bench's iPhone. */
export function hundredMissingRules(): LinkRule[] {
  const rules = hundredRules().slice(0, 99);
  rules.push({ when: 'country == "ZZ" && os == "iOS"', action: 'store' });
  // A URL needs the app's allow list; where a rule sends a visitor costs nothing until one holds.
  return rules.map((rule) => (rule.action === 'url' ? { when: rule.when, action: 'deep-link', path: '/open' } : rule));
}

/** The parent of process `pid` and its name, or null when it is gone. */
function parentOf(pid: number): { ppid: number; comm: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [, comm = '', rest = ''] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
    return { ppid: Number(rest.split(' ')[1]), comm };
  } catch {
    return null;
  }
}

/** The workerd processes `wrangler dev` started below this process (at any depth): whose CPU is measured. */
function workerdPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const self = parentOf(Number(entry));
    if (!self?.comm.startsWith('workerd')) continue;
    for (let at = self.ppid, depth = 0; at > 1 && depth < 8; depth += 1) {
      if (at === process.pid) {
        pids.push(Number(entry));
        break;
      }
      at = parentOf(at)?.ppid ?? 0;
    }
  }
  return pids;
}

interface Measured {
  load: LoadResult;
  /** CPU milliseconds per request of each workerd process, by pid; undefined off Linux. */
  cpuMs: Map<number, number> | undefined;
}

/** The busiest process's CPU per request: the worker's own isolate, without the proxy in front. */
const workerCpu = (m: Measured | undefined): number | undefined =>
  m?.cpuMs ? Math.max(...m.cpuMs.values()) : undefined;
/** Every wrangler dev process's CPU per request: the worker and the local proxy. */
const allCpu = (m: Measured | undefined): number | undefined =>
  m?.cpuMs ? [...m.cpuMs.values()].reduce((sum, ms) => sum + ms, 0) : undefined;

async function measureAt(context: BenchContext, url: string, server: number): Promise<Measured> {
  const options = {
    url,
    duration: context.duration,
    connections: context.connections,
    threads: context.threads,
    headers: { 'user-agent': IPHONE_UA, 'accept-language': 'en-US,en;q=0.9' },
  };
  await load({ ...options, duration: 2 });
  // Found again each time: wrangler dev may have restarted a process since.
  const pids = workerdPids().filter((pid) => pid !== server);
  const before = pids.map(cpuSeconds);
  const result = await load(options);
  const after = pids.map(cpuSeconds);
  if (result.non2xx3xx > 0) throw new Error(`${url}: ${result.non2xx3xx} answers were not 2xx/3xx`);
  // A process that ended meanwhile is left out: its CPU cannot be read.
  const cpuMs = new Map<number, number>();
  pids.forEach((pid, at) => {
    const [start, end] = [before[at], after[at]];
    if (start !== undefined && end !== undefined) cpuMs.set(pid, ((end - start) * 1000) / Math.max(1, result.requests));
  });
  return { load: result, cpuMs: cpuMs.size > 0 ? cpuMs : undefined };
}

export const rulesPage: BenchSection = {
  title: "A link's rules on its kept page (wrangler dev): 100 rules none of which holds ÷ none",
  async run(context) {
    const state = await mkdtemp(join(tmpdir(), 'lander-rules-page-'));
    try {
      applyMigrations({ local: true, persistTo: state });
      const worker = await unstable_dev('worker/index.ts', {
        config: 'wrangler.toml',
        persistTo: state,
        logLevel: 'error',
        // Others' edits to the checkout must not reload the worker (and empty its kept pages) mid-load.
        experimental: { disableExperimentalWarning: true, watch: false },
      });
      try {
        const origin = `http://${worker.address}:${worker.port}`;
        const make = async (slug: string, rules?: LinkRule[]): Promise<void> => {
          const res = await fetch(`${origin}/api/links`, {
            method: 'POST',
            headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ channel: 'bench', slug, rules }),
          });
          if (res.status !== 201) throw new Error(`POST /api/links answered ${res.status}: ${await res.text()}`);
        };
        await make('bench-plain');
        await make('bench-rules', hundredMissingRules());
        const headers = { 'user-agent': IPHONE_UA, 'accept-language': 'en-US,en;q=0.9' };
        const sizes: number[] = [];
        for (const slug of ['bench-plain', 'bench-rules']) {
          const res = await fetch(`${origin}/s/${slug}`, { headers, redirect: 'manual' });
          const body = await res.text();
          if (res.status !== 200) throw new Error(`/s/${slug} answered ${res.status}: the rules must leave the page`);
          sizes.push(body.length);
        }
        // The bench's own workerd idles meanwhile: only wrangler dev's count (its proxy and the worker).
        if (workerdPids().filter((pid) => pid !== context.server.pid).length === 0) {
          throw new Error('No workerd process found under this one');
        }
        const rounds: { plain: Measured; ruled: Measured; ratio: number }[] = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          // Without rules first, then with, and the other way round: a machine that slows down favours neither.
          const order = round % 2 === 0 ? ['bench-plain', 'bench-rules'] : ['bench-rules', 'bench-plain'];
          const measured: Record<string, Measured> = {};
          for (const slug of order)
            measured[slug] = await measureAt(context, `${origin}/s/${slug}`, context.server.pid);
          const plain = measured['bench-plain'] as Measured;
          const ruled = measured['bench-rules'] as Measured;
          const plainCpu = workerCpu(plain);
          const ruledCpu = workerCpu(ruled);
          const ratio =
            plainCpu && ruledCpu ? ruledCpu / plainCpu : plain.load.requestsPerSecond / ruled.load.requestsPerSecond;
          rounds.push({ plain, ruled, ratio });
        }
        const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor((ROUNDS - 1) / 2)];
        const describe = (m: Measured | undefined): string => {
          if (m === undefined) return 'not measured';
          const worker = workerCpu(m);
          const all = allCpu(m);
          const cpu =
            worker === undefined || all === undefined
              ? ''
              : `, ${worker.toFixed(3)} ms CPU/request in the worker's process (${all.toFixed(3)} with the proxy)`;
          return `${describeLoad(m.load)}${cpu}`;
        };
        const withProxy = (() => {
          const plain = allCpu(median?.plain);
          const ruled = allCpu(median?.ruled);
          return plain && ruled ? ruled / plain : undefined;
        })();
        // What the rules add in absolute time, which the ratio dilutes by the proxy and the D1 emulation
        // in this process: read against the production kept page's CPU (the HTTP section, about 0.15 ms).
        const added = rounds
          .map(({ plain, ruled }) => (workerCpu(ruled) ?? Number.NaN) - (workerCpu(plain) ?? Number.NaN))
          .filter((ms) => Number.isFinite(ms))
          .sort((a, b) => a - b);
        const addedMedian = added[Math.floor((added.length - 1) / 2)];
        const rows: BenchRow[] = [
          { name: `GET /s/<slug> kept page (iPhone, ${sizes[0]} B), no rules`, value: describe(median?.plain) },
          { name: `GET /s/<slug> kept page (${sizes[1]} B), 100 rules, none holds`, value: describe(median?.ruled) },
          budgetRow(
            `Kept page CPU, 100 rules ÷ none (the worker's process; median of ${ROUNDS} rounds: ${rounds.map((r) => r.ratio.toFixed(3)).join(', ')})`,
            median?.ratio,
            '≤',
            RULES_PAGE_BUDGET,
          ),
          {
            name: '  the same with the local proxy in front (info)',
            value: withProxy === undefined ? 'not measured' : withProxy.toFixed(3),
          },
          {
            name: '  CPU the 100 rules add per request, median of the rounds (info; each round within this process’s noise)',
            value:
              addedMedian === undefined
                ? 'not measured'
                : `${addedMedian.toFixed(3)} ms (rounds ${added.map((ms) => ms.toFixed(3)).join(', ')})`,
          },
        ];
        return rows;
      } finally {
        await worker.stop();
      }
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  },
};
