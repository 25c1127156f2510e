/**
 * "A new isolate" (docs/benchmarks.md#a-new-isolate): real traffic is spread over many isolates, and
 * each starts empty. The bench's workerd runs a second isolate of the production worker that shares
 * the first one's location cache (workerd-config.ts, decision 008) and has answered nothing yet. The
 * first isolate is warmed with the traffic mix; then the second gets the mix's first 1,000 requests,
 * at the same origin (its `Host`), and the share it renders is printed against its budget. Its pages
 * say how they were answered (`Server-Timing: kept;desc=hit|shared|miss`).
 */
import { Agent, request } from 'node:http';
import type { BenchRow, BenchSection } from './context.ts';
import { describeLoad, load } from './load.ts';
import { cpuSeconds } from './machine.ts';
import { readTrafficAgents } from './traffic-agents.ts';
import { mixLoad } from './traffic-mix.ts';

/** Requests sent to the new isolate. */
export const NEW_ISOLATE_REQUESTS = 1_000;
/** Of those, the share rendered, at most. */
export const NEW_ISOLATE_RENDER_BUDGET = 0.1;
const IN_FLIGHT = 8;

/** How a new isolate answered its requests: kept by itself, by the location, rendered, or no page. */
export interface KeptTally {
  hit: number;
  shared: number;
  miss: number;
  other: number;
  /** Distinct kinds of page (`page;desc=<id>`): each a render for an isolate with no location cache. */
  kinds: number;
}

/** Counts `Server-Timing` values by how the page was answered. */
export function tallyTimings(timings: readonly (string | undefined)[]): KeptTally {
  const tally: KeptTally = { hit: 0, shared: 0, miss: 0, other: 0, kinds: 0 };
  const kinds = new Set<string>();
  for (const timing of timings) {
    const state = /^kept;desc=(hit|shared|miss)\b/.exec(timing ?? '')?.[1] as 'hit' | 'shared' | 'miss' | undefined;
    tally[state ?? 'other'] += 1;
    const kind = /\bpage;desc=([0-9a-z]+)/.exec(timing ?? '')?.[1];
    if (kind) kinds.add(kind);
  }
  tally.kinds = kinds.size;
  return tally;
}

function serverTiming(
  agent: Agent,
  target: URL,
  host: string,
  path: string,
  headers: Record<string, string>,
): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const options = { agent, host: target.hostname, port: target.port, path, headers: { ...headers, host } };
    request(options, (response) => {
      response.resume();
      response.on('end', () => resolve(String(response.headers['server-timing'] ?? '')));
    })
      .on('error', reject)
      .end();
  });
}

export const newIsolate: BenchSection = {
  title: 'A new isolate (kept pages shared by the location)',
  async run(context) {
    const { url, server } = context;
    const agents = readTrafficAgents();
    const mix = mixLoad(context, agents, url);
    const warm = await load({ ...mix, duration: Math.min(context.duration, 5) });
    const requests = (mix.requests ?? []).slice(0, NEW_ISOLATE_REQUESTS);
    if (requests.length < NEW_ISOLATE_REQUESTS) throw new Error('The traffic mix has fewer than 1,000 requests');

    // The second isolate's socket, asked for the first one's origin: the origin is in the page and its key.
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const second = new URL(server.secondUrl);
    const host = new URL(url).host;
    const timings: (string | undefined)[] = [];
    const before = cpuSeconds(server.pid);
    const started = performance.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < requests.length; i = next++) {
        const { path = '/', headers = {} } = requests[i] ?? {};
        timings[i] = await serverTiming(agent, second, host, path, headers as Record<string, string>);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    const seconds = (performance.now() - started) / 1000;
    const after = cpuSeconds(server.pid);
    agent.destroy();

    const tally = tallyTimings(timings);
    const rendered = tally.miss / requests.length;
    const cpu =
      before === undefined || after === undefined
        ? ''
        : `, ${(((after - before) * 1000) / requests.length).toFixed(3)} ms CPU/request`;
    const rows: BenchRow[] = [
      {
        name: 'First isolate warmed with the mix',
        value: `${describeLoad(warm)}; kept ${warm.kept?.hit ?? '?'}, rendered ${warm.kept?.miss ?? '?'}`,
      },
      {
        name: `Second isolate, its first ${requests.length} mix requests`,
        value: `${tally.kinds} kinds of page; kept by the location ${tally.shared}, then by itself ${tally.hit}, rendered ${tally.miss}, no page ${tally.other}; ${(requests.length / seconds).toFixed(0)} req/s with ${IN_FLIGHT} in flight${cpu}`,
      },
      {
        name: '  without the location cache',
        value: `${tally.kinds} renders, one per kind (${((tally.kinds / requests.length) * 100).toFixed(1)} %)`,
      },
      {
        name: '  share rendered',
        value: `${(rendered * 100).toFixed(1)} %`,
        budget: { limit: `≤ ${NEW_ISOLATE_RENDER_BUDGET * 100} %`, ok: rendered <= NEW_ISOLATE_RENDER_BUDGET },
      },
    ];
    return rows;
  },
};
