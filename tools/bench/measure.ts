/**
 * One load measurement against the bench's workerd (docs/benchmarks.md): a 2-second warm-up (JIT,
 * module-scope setup, connections, kept pages), then the load, with workerd's CPU time per request
 * (the steadier figure on a shared machine), its resident memory right after and, when the server's
 * inspector is open, the V8 heap of the isolate that answered.
 */
import { describeHeap, type HeapUsage, isolateHeap } from './heap.ts';
import { describeLoad, type LoadOptions, type LoadResult, load } from './load.ts';
import { cpuSeconds, residentBytes } from './machine.ts';
import type { Served } from './serve.ts';

export interface Measured {
  load: LoadResult;
  /** workerd's CPU milliseconds per request, if the platform tells. */
  cpuMs?: number;
  /** workerd's resident memory after the load, if the platform tells. */
  rssBytes?: number;
  /** The answering isolate's V8 heap after the load, with the inspector open. */
  heap?: HeapUsage;
}

/** Warms up, then measures `options` for its duration; `worker` names the isolate whose heap is read. */
export async function measure(server: Served, options: LoadOptions, worker = 'lander'): Promise<Measured> {
  await load({ ...options, duration: 2 });
  const before = cpuSeconds(server.pid);
  const result = await load(options);
  const after = cpuSeconds(server.pid);
  const cpuMs =
    before === undefined || after === undefined || result.requests === 0
      ? undefined
      : ((after - before) * 1000) / result.requests;
  const rssBytes = residentBytes(server.pid);
  const heap = server.inspectorUrl === undefined ? undefined : await isolateHeap(server.inspectorUrl, worker);
  return {
    load: result,
    ...(cpuMs === undefined ? {} : { cpuMs }),
    ...(rssBytes === undefined ? {} : { rssBytes }),
    ...(heap === undefined ? {} : { heap }),
  };
}

/** Requests/s, latency, statuses, CPU per request, resident memory and heap on one line. */
export function describeMeasured(m: Measured): string {
  const cpu = m.cpuMs === undefined ? '' : `, ${m.cpuMs.toFixed(3)} ms CPU/request`;
  const rss = m.rssBytes === undefined ? '' : `, workerd RSS after ${(m.rssBytes / 2 ** 20).toFixed(0)} MiB`;
  const heap = m.heap === undefined ? '' : `, V8 heap ${describeHeap(m.heap)}`;
  return `${describeLoad(m.load)}${cpu}${rss}${heap}`;
}
