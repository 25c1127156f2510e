/**
 * "Traffic mix" (docs/benchmarks.md): `/` as real visitors ask for it — every request a different real
 * agent (tools/bench/traffic-agents.json), a few languages, half of the requests with a tracking
 * parameter no other request has — beside `/` for one iPhone agent repeated, in the same run on the
 * same workerd. Budget: the mix at ≥ 0.8 × the single agent's requests/s.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/run.ts';
import type { BenchContext, BenchRow, BenchSection } from './context.ts';
import { IPHONE_UA } from './context.ts';
import type { LoadOptions } from './load.ts';
import { describeMeasured, type Measured, measure } from './measure.ts';
import { DEVICES, readTrafficAgents, type TrafficAgent } from './traffic-agents.ts';
import { countingScript, mixScript } from './wrk-scripts.ts';

export const LANGUAGES = [
  'en-US,en;q=0.9',
  'de-DE,de;q=0.9,en;q=0.8',
  'es-419,es;q=0.9',
  'pt-BR,pt;q=0.9,en-US;q=0.8',
  'zh-CN,zh;q=0.9',
];
/** What ad clicks append: one is added, with a value of its own, to every other request. */
export const TRACKING = ['fbclid', 'gclid', 'utm_source', 'utm_campaign', 'utm_content'];
/** Mix requests/s ÷ the single agent's (docs/benchmarks.md). */
export const MIX_BUDGET = 0.8;
/** The page isolate's V8 heap used after the mix, at most (docs/benchmarks.md). */
export const MIX_HEAP_BUDGET_MIB = 64;

const SCRIPTS = join(ROOT, 'dist/bench');

/** Writes a generated wrk script into dist/bench; returns its path. */
export function wrkScriptFile(name: string, text: string): string {
  mkdirSync(SCRIPTS, { recursive: true });
  const path = join(SCRIPTS, name);
  writeFileSync(path, text);
  return path;
}

/** The single agent's load on `origin + path`: one iPhone, one language, wrk counting statuses. */
export function singleAgentLoad(context: BenchContext, origin: string, path = '/'): LoadOptions {
  return {
    url: `${origin}${path}`,
    duration: context.duration,
    connections: context.connections,
    threads: context.threads,
    headers: { 'user-agent': IPHONE_UA, 'accept-language': LANGUAGES[0] ?? 'en' },
    wrkScript: wrkScriptFile('count.lua', countingScript()),
  };
}

/**
 * The mix's load on `origin + path`. autocannon (no wrk) cycles a fixed list instead, so there the
 * tracking values repeat once per list.
 */
export function mixLoad(context: BenchContext, agents: TrafficAgent[], origin: string, path = '/'): LoadOptions {
  const names = agents.map(({ agent }) => agent);
  const separator = path.includes('?') ? '&' : '?';
  return {
    url: origin,
    duration: context.duration,
    connections: context.connections,
    threads: context.threads,
    wrkScript: wrkScriptFile(
      `mix${path.replace(/\W+/g, '-')}.lua`,
      mixScript({ agents: names, languages: LANGUAGES, tracking: TRACKING, path }),
    ),
    requests: names.map((agent, i) => ({
      method: 'GET',
      path: i % 2 === 0 ? path : `${path}${separator}${TRACKING[i % TRACKING.length]}=r${i}`,
      headers: { 'user-agent': agent, 'accept-language': LANGUAGES[i % LANGUAGES.length] ?? 'en' },
    })),
  };
}

/** The list's make-up: devices, in-app browsers, Android agents. */
export function describeAgents(agents: TrafficAgent[]): string {
  const devices = DEVICES.map((device) => `${device} ${agents.filter((a) => a.device === device).length}`);
  const inApp = agents.filter(({ agent }) =>
    /FBAN|FBAV|Instagram|MicroMessenger|Line\/|TikTok|musical_ly|; wv\)|GSA\//.test(agent),
  );
  const android = agents.filter(({ agent }) => agent.includes('Android'));
  return `${agents.length} distinct (${devices.join(', ')}; ${android.length} Android, ${inApp.length} in-app)`;
}

/** A probe before any load: every figure is meaningless if the page does not answer 200 HTML. */
export async function expectPage(url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(url, { headers, redirect: 'manual' });
  await response.arrayBuffer();
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !type.startsWith('text/html')) {
    throw new Error(`${url} answered ${response.status} ${type}; expected 200 text/html`);
  }
}

/** Mix ÷ single agent requests/s, against the budget. */
export function mixRatioRow(name: string, single: Measured, mix: Measured): BenchRow {
  const ratio = mix.load.requestsPerSecond / single.load.requestsPerSecond;
  return { name, value: ratio.toFixed(2), budget: { limit: `≥ ${MIX_BUDGET}`, ok: ratio >= MIX_BUDGET } };
}

/** Hit rate after the warm-up, from the page's `Server-Timing` (wrk only); each miss kept a page anew. */
export function keptRow(name: string, measured: Measured): BenchRow {
  const kept = measured.load.kept;
  if (!kept || kept.hit + kept.miss === 0) return { name, value: 'not counted (wrk is not installed)' };
  const rate = kept.hit / (kept.hit + kept.miss);
  return {
    name,
    value: `${(rate * 100).toFixed(1)} % (${kept.hit} kept, ${kept.miss} rendered: pages added during the load)`,
    budget: { limit: '≥ 95 %', ok: rate >= 0.95 },
  };
}

/**
 * How many different kept pages the load asked for: the pages name their page-cache key in
 * `Server-Timing` (`page;desc=<id>`, docs/benchmarks.md), and the wrk scripts count the distinct ids.
 */
export function pageKeysRow(name: string, measured: Measured): BenchRow {
  const { kept, pageKeys } = measured.load;
  if (!kept) return { name, value: 'not counted (wrk is not installed)' };
  if (!pageKeys) return { name, value: 'not sent by this build' };
  return { name, value: `${pageKeys} distinct page keys` };
}

export const trafficMix: BenchSection = {
  title: 'Traffic mix',
  async run(context) {
    const agents = readTrafficAgents();
    await expectPage(`${context.url}/?fbclid=probe`, { 'user-agent': agents[0]?.agent ?? IPHONE_UA });
    const single = await measure(context.server, singleAgentLoad(context, context.url));
    const mix = await measure(context.server, mixLoad(context, agents, context.url));
    const rows: BenchRow[] = [
      { name: 'Agents', value: describeAgents(agents) },
      { name: 'Requests', value: `${LANGUAGES.length} languages; every other with a unique ${TRACKING.join('/')}` },
      { name: 'GET / one iPhone agent (kept page hit)', value: describeMeasured(single) },
      { name: 'GET / traffic mix', value: describeMeasured(mix) },
      mixRatioRow('Mix ÷ single agent requests/s', single, mix),
    ];
    if (single.cpuMs && mix.cpuMs) {
      rows.push({ name: 'CPU per request, mix ÷ single agent', value: (mix.cpuMs / single.cpuMs).toFixed(2) });
    }
    if (mix.heap) {
      const used = mix.heap.usedBytes / 2 ** 20;
      rows.push({
        name: 'Page isolate V8 heap used after the mix',
        value: `${used.toFixed(1)} MiB`,
        budget: { limit: `≤ ${MIX_HEAP_BUDGET_MIB} MiB`, ok: used <= MIX_HEAP_BUDGET_MIB },
      });
    }
    rows.push(keptRow('Kept-page hit rate, one agent', single), keptRow('Kept-page hit rate, the mix', mix));
    rows.push(pageKeysRow('Page keys, one agent', single), pageKeysRow('Page keys, the mix', mix));
    return rows;
  },
};
