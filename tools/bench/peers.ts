/**
 * "Peers" (docs/benchmarks.md): Lander's `/` beside a static file and a plain Hono + React page
 * rendered on every request (tools/bench/workers/peer.tsx), all on the same workerd in the same run,
 * each on the single iPhone agent and on the traffic mix (tools/bench/traffic-mix.ts). The heap read
 * after each load is the answering isolate's: the front's for the file, the peer's, Lander's. The
 * floor (floor.ts: Lander's kept page's bytes and headers, nothing else) runs beside them on the one
 * agent: the most requests/s any worker answering Lander's page could reach against the peer.
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

const ratio = (a: Measured, b: Measured): string => (a.load.requestsPerSecond / b.load.requestsPerSecond).toFixed(2);

export const peers: BenchSection = {
  title: 'Peers: static file, plain Hono + React, Lander (same workerd, single agent and mix)',
  async run(context) {
    const { url, server } = context;
    const agents = readTrafficAgents();
    await expectPage(`${server.peerUrl}/`, { 'user-agent': IPHONE_UA });
    await expectPage(`${url}/`, { 'user-agent': IPHONE_UA });
    const targets = [
      {
        name: `static ${STATIC_ASSET} (${await bytesOf(`${url}${STATIC_ASSET}`)} B)`,
        origin: url,
        path: STATIC_ASSET,
        worker: 'front',
      },
      {
        name: `Hono + React (${await bytesOf(`${server.peerUrl}/`)} B)`,
        origin: server.peerUrl,
        path: '/',
        worker: 'peer',
      },
      { name: `Lander / (${await bytesOf(`${url}/`)} B)`, origin: url, path: '/', worker: 'lander' },
    ];
    const rows: BenchRow[] = [];
    const results: { single: Measured; mix: Measured }[] = [];
    for (const target of targets) {
      const single = await measure(server, singleAgentLoad(context, target.origin, target.path), target.worker);
      const mix = await measure(server, mixLoad(context, agents, target.origin, target.path), target.worker);
      results.push({ single, mix });
      rows.push({ name: `${target.name}, one agent`, value: describeMeasured(single) });
      rows.push({ name: `${target.name}, mix`, value: describeMeasured(mix) });
    }
    // The floor answers the iPhone agent's page whatever the agent: one agent only.
    const floorLoad = singleAgentLoad(context, server.floorUrl, '/');
    const floorBytes = await captureFloor(server, '/', floorLoad.headers ?? {});
    const floor = await measure(server, floorLoad, 'floor');
    rows.push({ name: `Floor: Lander's kept page only (${floorBytes} B), one agent`, value: describeMeasured(floor) });
    const [file, plain, lander] = results;
    if (file && plain && lander) {
      rows.push({ name: 'Floor ÷ Hono + React requests/s, one agent', value: ratio(floor, plain.single) });
      for (const load of ['single', 'mix'] as const) {
        const label = load === 'single' ? 'one agent' : 'mix';
        rows.push({
          name: `requests/s ÷ static, ${label}`,
          value: `Hono + React ${ratio(plain[load], file[load])}, Lander ${ratio(lander[load], file[load])}`,
        });
        rows.push({ name: `Lander ÷ Hono + React requests/s, ${label}`, value: ratio(lander[load], plain[load]) });
      }
    }
    return rows;
  },
};
