/**
 * The SSR page against a static asset, both through the same front of the same workerd server, in
 * one run (the ratio's budget: docs/benchmarks.md). Besides requests/s, the server's CPU time per
 * request: on a shared machine throughput swings with the neighbours' load, CPU per request much
 * less, so it is the figure to compare between runs there. A wrong status would make every figure
 * meaningless, so both URLs are checked before any load.
 *
 * The two are measured in turn, three rounds of page-then-asset, and the ratio is the median of the
 * rounds' ratios: each round's pair shares the machine's state of the moment (neighbours, the
 * worker's heap), which one page run followed by one asset run would not. Then the other page-speed
 * targets (http-targets.ts), each against the reported round's static CPU per request.
 */
import type { BenchRow, BenchSection } from './context.ts';
import { IPHONE_UA, STATIC_ASSET } from './context.ts';
import { budgetRow, TARGETS, targetRows } from './http-targets.ts';
import { describeLoad, type LoadResult, load } from './load.ts';
import { cpuSeconds, residentBytes } from './machine.ts';

const ROUNDS = 3;

async function expect(url: string, headers: Record<string, string>, type: string): Promise<number> {
  const response = await fetch(url, { headers, redirect: 'manual' });
  const bytes = (await response.arrayBuffer()).byteLength;
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !contentType.startsWith(type)) {
    throw new Error(`${url} answered ${response.status} ${contentType}; expected 200 ${type}`);
  }
  return bytes;
}

interface Measured {
  load: LoadResult;
  /** Server CPU milliseconds per request, if the platform tells. */
  cpuMs?: number;
}

export const http: BenchSection = {
  title: 'HTTP on workerd (production build, one front for both)',
  async run(context) {
    const { url, server, duration, connections, threads } = context;
    const headers = { 'user-agent': IPHONE_UA, 'accept-language': 'en-US,en;q=0.9' };
    const pageBytes = await expect(`${url}/`, headers, 'text/html');
    const assetBytes = await expect(`${url}${STATIC_ASSET}`, headers, 'image/png');

    const measure = async (path: string): Promise<Measured> => {
      const options = { url: `${url}${path}`, connections, threads, headers };
      await load({ ...options, duration: 2 }); // warm-up: JIT, module-scope setup, connections
      const before = cpuSeconds(server.pid);
      const result = await load({ ...options, duration });
      const after = cpuSeconds(server.pid);
      const cpuMs =
        before === undefined || after === undefined || result.requests === 0
          ? undefined
          : ((after - before) * 1000) / result.requests;
      return { load: result, cpuMs };
    };
    const rounds: { page: Measured; asset: Measured; ratio: number }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const page = await measure('/');
      const asset = await measure(STATIC_ASSET);
      rounds.push({ page, asset, ratio: page.load.requestsPerSecond / asset.load.requestsPerSecond });
    }
    // The round with the median ratio is reported whole, so its figures belong together.
    const { page, asset, ratio } = [...rounds].sort((a, b) => a.ratio - b.ratio)[
      Math.floor((ROUNDS - 1) / 2)
    ] as (typeof rounds)[number];
    const cpu = (m: Measured): string => (m.cpuMs === undefined ? '' : `, ${m.cpuMs.toFixed(3)} ms CPU/request`);
    const rss = residentBytes(server.pid);
    const rows: BenchRow[] = [
      { name: `GET / (iPhone, ${pageBytes} B HTML)`, value: `${describeLoad(page.load)}${cpu(page)}` },
      { name: `GET ${STATIC_ASSET} (static, ${assetBytes} B)`, value: `${describeLoad(asset.load)}${cpu(asset)}` },
      budgetRow(`SSR / static requests/s (median of ${ROUNDS} rounds)`, ratio, '≥', TARGETS.hitRequests),
      { name: '  ratio of each round', value: rounds.map((r) => r.ratio.toFixed(2)).join(', ') },
      budgetRow(
        'CPU per request, static ÷ SSR',
        page.cpuMs && asset.cpuMs ? asset.cpuMs / page.cpuMs : undefined,
        '≥',
        TARGETS.hitCpu,
      ),
      budgetRow('p99 latency, SSR ÷ static', page.load.p99 / asset.load.p99, '≤', TARGETS.hitP99),
      { name: 'workerd resident memory after load', value: rss ? `${(rss / 2 ** 20).toFixed(0)} MiB` : '?' },
      // The other targets against the static file of the reported round (docs/benchmarks.md).
      ...(await targetRows(context, asset.cpuMs)),
    ];
    return rows;
  },
};
