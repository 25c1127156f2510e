/**
 * `npm run bench:lab -- --load` (docs/benchmarks.md): load modes against the production build on
 * `workerd serve`, loopback only, each bounded by `--duration` — `/` with an iPhone agent,
 * `/api/trace`, a hostile mix of bad paths, queries, agents and headers, and the calls that read KV
 * while the KV service throws and while it hangs for 5 s. Each prints requests/s, p50, p99,
 * non-2xx/3xx (with 4xx and 5xx apart) and socket errors; the bar is zero 5xx and zero socket
 * errors in every mode.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/run.ts';
import type { BenchContext, BenchRow, BenchSection } from './context.ts';
import { IPHONE_UA } from './context.ts';
import { hostileRequests } from './hostile-requests.ts';
import { describeLoad, type LoadOptions, type LoadResult, load } from './load.ts';
import type { KvFault } from './workers/kv.ts';
import { type CycledRequest, countingScript, cyclingScript } from './wrk-scripts.ts';

const SCRIPTS = join(ROOT, 'dist/bench');
const BAR = '0 5xx, 0 socket errors';

/** Writes a wrk script into dist/bench and returns its path. */
function script(name: string, text: string): string {
  mkdirSync(SCRIPTS, { recursive: true });
  const path = join(SCRIPTS, name);
  writeFileSync(path, text);
  return path;
}

/** A load result against the bar: 5xx counted apart from 4xx (a 404 for a bad path is right). */
export function loadRow(name: string, result: LoadResult): BenchRow {
  const fiveXx = result.statusClasses?.['5xx'];
  const ok = fiveXx === 0 && result.socketErrors === 0;
  return { name, value: describeLoad(result), budget: { limit: BAR, ok } };
}

/** Options for a mode that cycles `requests` (wrk script, or autocannon's request list). */
export function cycling(context: BenchContext, name: string, requests: CycledRequest[]): LoadOptions {
  return {
    url: context.url,
    duration: context.duration,
    connections: context.connections,
    threads: context.threads,
    wrkScript: script(name, cyclingScript(requests)),
    requests: requests.map(({ method = 'GET', path, headers }) => ({ method: method as 'GET', path, headers })),
  };
}

/** The calls that read KV: the page (its config), the build calls. */
export function kvRequests(buildId: string): CycledRequest[] {
  const headers = { 'User-Agent': IPHONE_UA, 'Accept-Language': 'en-US,en;q=0.9' };
  return [
    { path: '/', headers },
    { path: '/landing?channel=spring', headers },
    { path: `/assets/builds/latest.json?${Date.now()}`, headers },
    { path: `/assets/builds/meta/${buildId}.json`, headers },
  ];
}

/** Ordinary visits for the soak: the pages for several devices, the APIs, the build calls, a file. */
export function visitRequests(): CycledRequest[] {
  const agents = [
    IPHONE_UA,
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ];
  const paths = ['/', '/landing?channel=spring&inviter=Ann', '/no-such-page', '/api/device', '/logo.png'];
  return [
    ...agents.flatMap((agent) => paths.map((path) => ({ path, headers: { 'User-Agent': agent } }))),
    { path: '/assets/builds/latest.json', headers: { 'User-Agent': IPHONE_UA } },
    { path: '/api/trace', headers: { 'User-Agent': IPHONE_UA } },
  ];
}

/** KV faults the KV-fault mode runs under, one measurement each. */
export const KV_FAULTS: { label: string; fault: KvFault }[] = [
  { label: 'KV throws', fault: { mode: 'throw' } },
  { label: 'KV hangs 5 s', fault: { mode: 'hang', ms: 5000 } },
];

async function traceMode(context: BenchContext): Promise<BenchRow> {
  const probe = await fetch(`${context.url}/api/trace`, { headers: { 'user-agent': IPHONE_UA } });
  await probe.arrayBuffer();
  if (probe.status === 404) {
    return { name: 'GET /api/trace', value: 'skipped: this build has no /api/trace (404)' };
  }
  const result = await load({
    url: `${context.url}/api/trace`,
    duration: context.duration,
    connections: context.connections,
    threads: context.threads,
    headers: { 'user-agent': IPHONE_UA },
    wrkScript: script('count.lua', countingScript()),
  });
  return loadRow('GET /api/trace', result);
}

export const loadModes: BenchSection = {
  title: 'Load modes (--load): zero 5xx and zero socket errors in every mode',
  async run(context) {
    const rows: BenchRow[] = [];
    const count = script('count.lua', countingScript());
    const page = {
      url: `${context.url}/`,
      connections: context.connections,
      threads: context.threads,
      headers: { 'user-agent': IPHONE_UA, 'accept-language': 'en-US,en;q=0.9' },
      wrkScript: count,
    };
    await load({ ...page, duration: 2 }); // warm-up
    rows.push(loadRow('GET / (iPhone)', await load({ ...page, duration: context.duration })));
    rows.push(await traceMode(context));
    const hostile = hostileRequests();
    rows.push(
      loadRow(`Hostile mix (${hostile.length} requests)`, await load(cycling(context, 'hostile.lua', hostile))),
    );

    const latest = (await (await fetch(`${context.url}/assets/builds/latest.json`)).json()) as { id: string };
    const kv = cycling(context, 'kv.lua', kvRequests(latest.id));
    try {
      for (const { label, fault } of KV_FAULTS) {
        await context.server.setKvFault(fault);
        rows.push(loadRow(`${label}: /, /landing, build calls`, await load(kv)));
      }
    } finally {
      await context.server.setKvFault({ mode: 'none' });
    }
    return rows;
  },
};
