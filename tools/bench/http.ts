/**
 * The kept page against the floor (docs/benchmarks.md#the-floor): Lander's `/` for one iPhone, the
 * floor worker answering that page's exact bytes and headers and nothing else, and a static asset,
 * all through the same front of the same workerd server, in one run. Besides requests/s, the server's
 * CPU time per request: on a shared machine throughput swings with the neighbours' load, CPU per
 * request much less, so it is the figure to compare between runs there. A wrong status or a floor
 * that answers anything but the kept page would make every figure meaningless, so both are checked
 * before any load.
 *
 * The three are measured in turn, three rounds of page, floor, asset, and the reported round is the
 * one with the median page ÷ floor ratio: each round shares the machine's state of the moment
 * (neighbours, the worker's heap), which one page run followed by one floor run would not. The
 * static file's ratios are printed as information; the targets are the floor's. Then the other
 * targets (http-targets.ts), each against the reported round's floor.
 */
import type { BenchRow, BenchSection } from './context.ts';
import { IPHONE_UA, STATIC_ASSET } from './context.ts';
import { captureFloor } from './floor.ts';
import { budgetRow, TARGETS, targetRows } from './http-targets.ts';
import { describeLoad } from './load.ts';
import { residentBytes } from './machine.ts';
import { type Measured, measure } from './measure.ts';

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

const cpu = (m: Measured): string => (m.cpuMs === undefined ? '' : `, ${m.cpuMs.toFixed(3)} ms CPU/request`);
const cpuRatio = (a: Measured, b: Measured): number | undefined => (a.cpuMs && b.cpuMs ? a.cpuMs / b.cpuMs : undefined);
const info = (name: string, ratio: number | undefined): BenchRow => ({
  name,
  value: ratio === undefined ? 'not measured on this platform' : ratio.toFixed(2),
});

export const http: BenchSection = {
  title: 'HTTP on workerd (production build, one front for all)',
  async run(context) {
    const { url, server, duration, connections, threads } = context;
    const headers = { 'user-agent': IPHONE_UA, 'accept-language': 'en-US,en;q=0.9' };
    await expect(`${url}/`, headers, 'text/html');
    const pageBytes = await captureFloor(server, '/', headers);
    const assetBytes = await expect(`${url}${STATIC_ASSET}`, headers, 'image/png');

    // Heap readings would attach the inspector between loads: not needed here.
    const at = (origin: string, path: string) =>
      measure(
        { ...server, inspectorUrl: undefined },
        { url: `${origin}${path}`, connections, threads, headers, duration },
      );
    const rounds: { page: Measured; floor: Measured; asset: Measured; ratio: number }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const page = await at(url, '/');
      const floor = await at(server.floorUrl, '/');
      const asset = await at(url, STATIC_ASSET);
      // Without CPU figures (not Linux), the requests/s ratio the other way round, so higher is worse too.
      const ratio = cpuRatio(page, floor) ?? floor.load.requestsPerSecond / page.load.requestsPerSecond;
      rounds.push({ page, floor, asset, ratio });
    }
    // The round with the median ratio is reported whole, so its figures belong together.
    const { page, floor, asset } = [...rounds].sort((a, b) => a.ratio - b.ratio)[
      Math.floor((ROUNDS - 1) / 2)
    ] as (typeof rounds)[number];
    const rss = residentBytes(server.pid);
    const rows: BenchRow[] = [
      { name: `GET / (iPhone, ${pageBytes} B HTML), kept page`, value: `${describeLoad(page.load)}${cpu(page)}` },
      { name: 'Floor: the same bytes and headers, nothing else', value: `${describeLoad(floor.load)}${cpu(floor)}` },
      { name: `GET ${STATIC_ASSET} (static, ${assetBytes} B)`, value: `${describeLoad(asset.load)}${cpu(asset)}` },
      budgetRow(`Kept page CPU ÷ floor (median of ${ROUNDS} rounds)`, cpuRatio(page, floor), '≤', TARGETS.keptCpu),
      { name: '  ratio of each round', value: rounds.map((r) => r.ratio.toFixed(2)).join(', ') },
      budgetRow(
        'Kept page requests/s ÷ floor',
        page.load.requestsPerSecond / floor.load.requestsPerSecond,
        '≥',
        TARGETS.keptRequests,
      ),
      info('  p99 latency, kept page ÷ floor', page.load.p99 / floor.load.p99),
      info('Static: kept page requests/s ÷ static (info)', page.load.requestsPerSecond / asset.load.requestsPerSecond),
      info('Static: CPU per request, static ÷ kept page (info)', cpuRatio(asset, page)),
      info('Static: floor CPU ÷ static (info)', cpuRatio(floor, asset)),
      { name: 'workerd resident memory after load', value: rss ? `${(rss / 2 ** 20).toFixed(0)} MiB` : '?' },
      // The other targets, each against the floor measured right before and after it (docs/benchmarks.md).
      ...(await targetRows(context, () => at(server.floorUrl, '/'))),
    ];
    return rows;
  },
};
