/**
 * "Peers" (docs/benchmarks.md): Lander's `/` beside a static file and a plain Hono + React page
 * rendered on every request (tools/bench/workers/peer.tsx), all on the same workerd in the same run,
 * each on the single iPhone agent and on the traffic mix (tools/bench/traffic-mix.ts). The heap read
 * after each load is the answering isolate's: the front's for the file, the peer's, Lander's. The
 * floor (floor.ts: Lander's kept page's bytes and headers, nothing else) runs beside them on the one
 * agent: the most requests/s any worker answering Lander's page could reach against the peer. Each
 * load runs in 3 rounds, every target once a round in turn; the round with the median Lander ÷ peer
 * is printed whole, with each round's ratio, as the HTTP section does.
 */
import type { BenchRow, BenchSection } from './context.ts';
import { IPHONE_UA, STATIC_ASSET } from './context.ts';
import { captureFloor } from './floor.ts';
import { describeMeasured, type Measured, measure } from './measure.ts';
import { readTrafficAgents } from './traffic-agents.ts';
import { expectPage, mixLoad, singleAgentLoad } from './traffic-mix.ts';

async function bytesOf(url: string): Promise<number> {
  const response = await fetch(url, { headers: { 'user-agent': IPHONE_UA } });
  return (await response.arrayBuffer()).byteLength;
}

const rps = (m: Measured): number => m.load.requestsPerSecond;
const ratio = (a: Measured, b: Measured): string => (rps(a) / rps(b)).toFixed(2);

/** Rounds per load, each target once a round, in turn: a ratio is read within one round, and the median reported. */
const ROUNDS = 3;

interface Target {
  key: 'file' | 'plain' | 'lander' | 'floor';
  name: string;
  origin: string;
  path: string;
  worker: string;
}

/** The median of `values` and its index (the lower middle one of an even count). */
function median(values: number[]): { value: number; index: number } {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  return order[Math.floor((order.length - 1) / 2)] as { value: number; index: number };
}

export const peers: BenchSection = {
  title: 'Peers: static file, plain Hono + React, Lander (same workerd, single agent and mix)',
  async run(context) {
    const { url, server } = context;
    const agents = readTrafficAgents();
    await expectPage(`${server.peerUrl}/`, { 'user-agent': IPHONE_UA });
    await expectPage(`${url}/`, { 'user-agent': IPHONE_UA });
    const floorBytes = await captureFloor(server, '/', singleAgentLoad(context, url).headers ?? {});
    const targets: Target[] = [
      {
        key: 'file',
        name: `static ${STATIC_ASSET} (${await bytesOf(`${url}${STATIC_ASSET}`)} B)`,
        origin: url,
        path: STATIC_ASSET,
        worker: 'front',
      },
      {
        key: 'plain',
        name: `Hono + React (${await bytesOf(`${server.peerUrl}/`)} B)`,
        origin: server.peerUrl,
        path: '/',
        worker: 'peer',
      },
      { key: 'lander', name: `Lander / (${await bytesOf(`${url}/`)} B)`, origin: url, path: '/', worker: 'lander' },
      // The floor answers the iPhone agent's page whatever the agent: one agent only.
      {
        key: 'floor',
        name: `Floor: Lander's kept page only (${floorBytes} B)`,
        origin: server.floorUrl,
        path: '/',
        worker: 'floor',
      },
    ];
    const rows: BenchRow[] = [];
    for (const load of ['single', 'mix'] as const) {
      const label = load === 'single' ? 'one agent' : 'mix';
      const measured = targets.filter((target) => load === 'single' || target.key !== 'floor');
      const rounds: Partial<Record<Target['key'], Measured>>[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const results: Partial<Record<Target['key'], Measured>> = {};
        for (const target of measured) {
          const options =
            load === 'single'
              ? singleAgentLoad(context, target.origin, target.path)
              : mixLoad(context, agents, target.origin, target.path);
          results[target.key] = await measure(server, options, target.worker);
        }
        rounds.push(results);
      }
      const landerToPeer = rounds.map(({ lander, plain }) => (lander && plain ? rps(lander) / rps(plain) : 0));
      const middle = median(landerToPeer);
      const { file, plain, lander, floor } = rounds[middle.index] ?? {};
      for (const target of measured) {
        const m = rounds[middle.index]?.[target.key];
        if (m) rows.push({ name: `${target.name}, ${label}`, value: describeMeasured(m) });
      }
      if (!file || !plain || !lander) continue;
      rows.push({
        name: `requests/s ÷ static, ${label}`,
        value: `Hono + React ${ratio(plain, file)}, Lander ${ratio(lander, file)}`,
      });
      rows.push({
        name: `Lander ÷ Hono + React requests/s, ${label} (median of ${ROUNDS} rounds)`,
        value: `${middle.value.toFixed(2)}; rounds ${landerToPeer.map((r) => r.toFixed(2)).join(', ')}`,
      });
      if (floor) {
        const floorToPeer = rounds.map((round) =>
          round.floor && round.plain ? rps(round.floor) / rps(round.plain) : 0,
        );
        rows.push({
          name: `Floor ÷ Hono + React requests/s, ${label} (median of ${ROUNDS} rounds)`,
          value: `${median(floorToPeer).value.toFixed(2)}; rounds ${floorToPeer.map((r) => r.toFixed(2)).join(', ')}`,
        });
      }
    }
    return rows;
  },
};
