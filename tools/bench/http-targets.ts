/**
 * The page-speed targets beside the floor (docs/benchmarks.md#the-floor): server CPU per request of a
 * kept-page miss, a campaign link's kept page and the page's three API calls, each divided by the
 * floor's CPU per request measured right before and after it (http.ts: a worker answering the kept
 * page's bytes and headers and nothing else), against its budget, with the work a call must do named.
 * Each call is checked once before its load, so a wrong status cannot pass for a fast one.
 */

import { benchClicks, benchToken } from './attribution.ts';
import type { BenchContext, BenchRow } from './context.ts';
import { IPHONE_UA } from './context.ts';
import { describeLoad, type LoadOptions } from './load.ts';
import { type Measured, measure } from './measure.ts';
import { LANGUAGES, singleAgentLoad, wrkScriptFile } from './traffic-mix.ts';
import { countingScript } from './wrk-scripts.ts';
import { UNIQUE, uniqueScript } from './wrk-unique.ts';

/** Budgets of the page-speed targets, as ratios to the floor (docs/benchmarks.md#the-floor). */
export const TARGETS = {
  /** Kept page ÷ floor CPU per request, `/`: at most. */
  keptCpu: 1.1,
  /** Kept page ÷ floor requests/s, `/`: at least. */
  keptRequests: 0.9,
  /** CPU ÷ floor, a page no visitor asked for before (a render): at most. */
  miss: 4,
  /** CPU ÷ floor, `/api/device`: at most. */
  device: 1.2,
  /** CPU ÷ floor, a call with required work of its own (`/api/trace`, `/api/a/click-ids`, `/api/a/click`): at most. */
  work: 2,
} as const;

/** A ratio against its budget, `≤` or `≥` the limit; unmeasured (no CPU figure on this platform) without one. */
export function budgetRow(name: string, ratio: number | undefined, bound: '≤' | '≥', limit: number): BenchRow {
  if (ratio === undefined || !Number.isFinite(ratio)) return { name, value: 'not measured on this platform' };
  const ok = bound === '≤' ? ratio <= limit : ratio >= limit;
  return { name, value: ratio.toFixed(2), budget: { limit: `${bound} ${limit}`, ok } };
}

const MISS = 'GET /?channel=<new each time> (kept-page miss)';

/** One target: its load, the answer its probe must get, and its budget. */
export interface Target {
  name: string;
  load: LoadOptions;
  probe: { path: string; init?: RequestInit; status: number; type?: string; contains?: string; origin?: string };
  /** The budget; none: printed as information. */
  limit?: number;
  /** The work the call must do beyond answering, named beside its ratio. */
  required?: string;
  /** An earlier target (its name) whose median round's CPU per request ÷ this one's is printed as `label`. */
  divides?: { name: string; label: string };
}

/** The targets measured after the kept page and the floor, in order (also profiled by the lab: profile.ts). */
export function targets(context: BenchContext): Target[] {
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
      name: MISS,
      load: {
        ...timed,
        url,
        wrkScript: wrkScriptFile('miss.lua', uniqueScript([{ path: `/?channel=${UNIQUE}`, headers: iPhone }])),
      },
      probe: { path: '/?channel=probe', init: { headers: iPhone }, status: 200, type: 'text/html' },
      limit: TARGETS.miss,
      required: 'a render, kept in the isolate and the location cache',
    },
    {
      name: 'The floor of a first visitor: a lookup in the location cache, the page, kept there (new URL each time)',
      load: {
        ...timed,
        url: context.server.floorMissUrl,
        wrkScript: wrkScriptFile('floor-miss.lua', uniqueScript([{ path: `/?channel=${UNIQUE}`, headers: iPhone }])),
      },
      probe: {
        origin: context.server.floorMissUrl,
        path: '/?channel=probe',
        init: { headers: iPhone },
        status: 200,
        type: 'text/html',
      },
      required: 'what any worker that shares a new page with its location pays besides the render; information',
      divides: { name: MISS, label: '  Kept-page miss CPU ÷ this floor (information: what the render itself costs)' },
    },
    {
      name: 'GET /landing?d=<campaign token> (kept page)',
      load: singleAgentLoad(context, url, landing),
      // The token's inviter on the page: the worker read it with the bench's key.
      probe: { path: landing, init: { headers: iPhone }, status: 200, type: 'text/html', contains: '>ann<' },
      required: 'the campaign token read per request; information',
    },
    {
      name: 'GET /api/device (iPhone)',
      load: singleAgentLoad(context, url, '/api/device'),
      probe: { path: '/api/device', init: { headers: iPhone }, status: 200, type: 'application/json' },
      limit: TARGETS.device,
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
      limit: TARGETS.work,
      required: 'a new id, its cookie, one log line',
    },
    {
      name: 'GET /api/a/click-ids (the page, as it starts)',
      load: {
        ...timed,
        url: `${url}/api/a/click-ids`,
        headers: { ...trace, 'cf-connecting-ip': '203.0.113.9' },
        wrkScript: wrkScriptFile('count.lua', countingScript()),
      },
      probe: {
        path: '/api/a/click-ids',
        init: { headers: { ...trace, 'cf-connecting-ip': '203.0.113.9' } },
        status: 200,
        type: 'application/json',
      },
      limit: TARGETS.work,
      required: 'four click ids, each signed with a keyed tag',
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
      limit: TARGETS.work,
      required: 'two Durable Object writes (click index, network bucket), keyed hashes',
    },
  ];
}

async function probe(url: string, { path, init, status, type, contains, origin }: Target['probe']): Promise<void> {
  const response = await fetch(`${origin ?? url}${path}`, { ...init, redirect: 'manual' });
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

/** Rounds per target: its ratio is the median round's (http.ts measures the kept page the same way). */
export const TARGET_ROUNDS = 3;

/**
 * Each round's ratio of a target's CPU per request (`targetMs[i]`) to the mean of the floor measured
 * right before and right after it (`floorMs[i]` and `floorMs[i + 1]`: one floor between two rounds
 * serves both), each round's floor (that mean) and the index of the median round; undefined where a
 * figure is missing.
 */
export function roundRatios(
  targetMs: ReadonlyArray<number | undefined>,
  floorMs: ReadonlyArray<number | undefined>,
): { ratios: number[]; floors: number[]; median: number } | undefined {
  const ratios: number[] = [];
  const floors: number[] = [];
  for (const [i, target] of targetMs.entries()) {
    const [before, after] = [floorMs[i], floorMs[i + 1]];
    if (target === undefined || !before || !after) return undefined;
    const floor = (before + after) / 2;
    floors.push(floor);
    ratios.push(target / floor);
  }
  if (ratios.length === 0) return undefined;
  const order = ratios.map((_, i) => i).sort((a, b) => (ratios[a] as number) - (ratios[b] as number));
  return { ratios, floors, median: order[Math.floor((order.length - 1) / 2)] as number };
}

/**
 * Measures every target in `TARGET_ROUNDS` rounds, each with the floor measured right before and
 * right after it (one floor load between two rounds serves both), and reads its CPU per request ÷ the
 * mean of those two floors against its budget, the median round's: a shared machine drifts within a
 * run by more than the budgets' margins, so a round is read against the floor of its own seconds, and
 * one slow round does not decide.
 */
export async function targetRows(context: BenchContext, measureFloor: () => Promise<Measured>): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // Each target's median round's CPU per request, by name (for `divides`).
  const medianCpu = new Map<string, number | undefined>();
  let before = await measureFloor();
  for (const target of targets(context)) {
    await probe(context.url, target.probe);
    const measured: Measured[] = [];
    const floors: Measured[] = [before];
    for (let round = 0; round < TARGET_ROUNDS; round += 1) {
      measured.push(await measure(context.server, target.load));
      floors.push(await measureFloor());
    }
    before = floors.at(-1) as Measured;
    const rounds = roundRatios(
      measured.map((m) => m.cpuMs),
      floors.map((m) => m.cpuMs),
    );
    const median = rounds?.median ?? 0;
    const shown = measured[median] as Measured;
    const floorText = rounds ? `; floor ${rounds.floors[median]?.toFixed(3)} ms, before and after` : '';
    const name = `  CPU per request ÷ floor, median of ${TARGET_ROUNDS} rounds${target.required ? ` (${target.required})` : ''}`;
    const ratio = rounds?.ratios[median];
    medianCpu.set(target.name, shown.cpuMs);
    const { divides } = target;
    const dividend = divides && medianCpu.get(divides.name);
    rows.push(
      { name: target.name, value: `${describeTarget(shown)}${floorText}` },
      target.limit === undefined
        ? { name, value: ratio === undefined ? 'not measured on this platform' : ratio.toFixed(2) }
        : budgetRow(name, ratio, '≤', target.limit),
      ...(rounds
        ? [{ name: '    ratio of each round', value: rounds.ratios.map((r) => r.toFixed(2)).join(', ') }]
        : []),
      ...(divides && dividend && shown.cpuMs
        ? [{ name: divides.label, value: (dividend / shown.cpuMs).toFixed(2) }]
        : []),
    );
  }
  return rows;
}
