/**
 * The page-speed targets beside the static file (docs/benchmarks.md): server CPU per request of a
 * kept-page miss, a campaign link's kept page and the page's three API calls, each divided by the
 * static file's CPU per request measured in the same run (http.ts), against its budget. Each call is
 * checked once before its load, so a wrong status cannot pass for a fast one.
 */

import { benchClicks, benchToken } from './attribution.ts';
import type { BenchContext, BenchRow } from './context.ts';
import { IPHONE_UA } from './context.ts';
import { describeLoad, type LoadOptions } from './load.ts';
import { type Measured, measure } from './measure.ts';
import { LANGUAGES, singleAgentLoad, wrkScriptFile } from './traffic-mix.ts';
import { countingScript } from './wrk-scripts.ts';
import { UNIQUE, uniqueScript } from './wrk-unique.ts';

/** Budgets of the page-speed targets, as ratios to the static file (docs/benchmarks.md). */
export const TARGETS = {
  /** Static ÷ SSR CPU per request, `/` hit: at least. */
  hitCpu: 0.8,
  /** SSR ÷ static requests/s, `/` hit: at least. */
  hitRequests: 0.8,
  /** SSR p99 ÷ static p99, `/` hit: at most. */
  hitP99: 2,
  /** CPU ÷ static, a page no visitor asked for before: at most. */
  miss: 6,
  /** CPU ÷ static, a campaign link's kept page: at most. */
  landing: 4,
  /** CPU ÷ static, each API call the page makes: at most. */
  api: 1.5,
} as const;

/** A ratio against its budget, `≤` or `≥` the limit; unmeasured (no CPU figure on this platform) without one. */
export function budgetRow(name: string, ratio: number | undefined, bound: '≤' | '≥', limit: number): BenchRow {
  if (ratio === undefined || !Number.isFinite(ratio)) return { name, value: 'not measured on this platform' };
  const ok = bound === '≤' ? ratio <= limit : ratio >= limit;
  return { name, value: ratio.toFixed(2), budget: { limit: `${bound} ${limit}`, ok } };
}

/** One target: its load, the answer its probe must get, and its budget. */
interface Target {
  name: string;
  load: LoadOptions;
  probe: { path: string; init?: RequestInit; status: number; type?: string; contains?: string };
  limit: number;
}

function targets(context: BenchContext): Target[] {
  const { url } = context;
  const iPhone = { 'user-agent': IPHONE_UA, 'accept-language': LANGUAGES[0] ?? 'en' };
  const timed = { duration: context.duration, connections: context.connections, threads: context.threads };
  const landing = `/landing?d=${benchToken()}`;
  // What the page's fetch sends on a first visit (client/browser/identity/visitor-id.ts): same origin, no cookie yet.
  const trace = {
    ...iPhone,
    accept: 'application/json',
    referer: `${url}/`,
    'sec-fetch-site': 'same-origin',
    'sec-fetch-mode': 'cors',
    'sec-fetch-dest': 'empty',
  };
  const clicks = benchClicks(200).map(({ phone, address, body }) => ({
    method: 'POST',
    path: '/api/a/click',
    headers: {
      'content-type': 'application/json',
      'cf-connecting-ip': address,
      'user-agent': phone.web.agent,
      origin: url,
    },
    body: JSON.stringify({ ...body, clickId: UNIQUE }),
  }));
  const probeClick = clicks[0] ?? { headers: {}, body: '' };
  return [
    {
      name: 'GET /?channel=<new each time> (kept-page miss)',
      load: {
        ...timed,
        url,
        wrkScript: wrkScriptFile('miss.lua', uniqueScript([{ path: `/?channel=${UNIQUE}`, headers: iPhone }])),
      },
      probe: { path: '/?channel=probe', init: { headers: iPhone }, status: 200, type: 'text/html' },
      limit: TARGETS.miss,
    },
    {
      name: 'GET /landing?d=<campaign token> (kept page)',
      load: singleAgentLoad(context, url, landing),
      // The token's inviter on the page: the worker read it with the bench's key.
      probe: { path: landing, init: { headers: iPhone }, status: 200, type: 'text/html', contains: '>ann<' },
      limit: TARGETS.landing,
    },
    {
      name: 'GET /api/device (iPhone)',
      load: singleAgentLoad(context, url, '/api/device'),
      probe: { path: '/api/device', init: { headers: iPhone }, status: 200, type: 'application/json' },
      limit: TARGETS.api,
    },
    {
      name: 'GET /api/trace (same origin, first visit)',
      load: {
        ...timed,
        url: `${url}/api/trace`,
        headers: trace,
        wrkScript: wrkScriptFile('count.lua', countingScript()),
      },
      probe: { path: '/api/trace', init: { headers: trace }, status: 200, type: 'application/json' },
      limit: TARGETS.api,
    },
    {
      name: 'POST /api/a/click (a new click id each request)',
      load: { ...timed, url, wrkScript: wrkScriptFile('click.lua', uniqueScript(clicks)) },
      probe: {
        path: '/api/a/click',
        init: {
          method: 'POST',
          headers: probeClick.headers,
          body: probeClick.body.replace(UNIQUE, 'probeprobeprobeprobe00'),
        },
        status: 204,
      },
      limit: TARGETS.api,
    },
  ];
}

async function probe(url: string, { path, init, status, type, contains }: Target['probe']): Promise<void> {
  const response = await fetch(`${url}${path}`, { ...init, redirect: 'manual' });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status !== status || (type !== undefined && !contentType.startsWith(type))) {
    throw new Error(`${path} answered ${response.status} ${contentType}; expected ${status} ${type ?? ''}`);
  }
  if (contains !== undefined && !text.includes(contains)) throw new Error(`${path} answered without ${contains}`);
}

/** `… ms CPU/request` and, for pages, how many were kept and rendered. */
export function describeTarget(m: Measured): string {
  const cpu = m.cpuMs === undefined ? '' : `, ${m.cpuMs.toFixed(3)} ms CPU/request`;
  const kept = m.load.kept && m.load.kept.hit + m.load.kept.miss > 0;
  const pages = kept ? `; kept ${m.load.kept?.hit}, rendered ${m.load.kept?.miss}` : '';
  return `${describeLoad(m.load)}${cpu}${pages}`;
}

/** Measures every target, then its CPU per request ÷ `staticCpuMs` against its budget. */
export async function targetRows(context: BenchContext, staticCpuMs: number | undefined): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const target of targets(context)) {
    await probe(context.url, target.probe);
    const measured = await measure(context.server, target.load);
    const ratio = measured.cpuMs === undefined || !staticCpuMs ? undefined : measured.cpuMs / staticCpuMs;
    rows.push(
      { name: target.name, value: describeTarget(measured) },
      budgetRow('  CPU per request ÷ static', ratio, '≤', target.limit),
    );
  }
  return rows;
}
