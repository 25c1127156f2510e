/**
 * One load measurement against the bench's workerd (docs/benchmarks.md): a 2-second warm-up (JIT,
 * module-scope setup, connections, kept pages), then the load, with workerd's CPU time per request
 * (the steadier figure on a shared machine) and its resident memory right after.
 */
import { describeLoad, type LoadOptions, type LoadResult, load } from './load.ts';
import { cpuSeconds, residentBytes } from './machine.ts';
import type { Served } from './serve.ts';

export interface Measured {
  load: LoadResult;
  /** workerd's CPU milliseconds per request, if the platform tells. */
  cpuMs?: number;
  /** workerd's resident memory after the load, if the platform tells. */
  rssBytes?: number;
}

/** Warms up, then measures `options` for its duration. */
export async function measure(server: Served, options: LoadOptions): Promise<Measured> {
  await load({ ...options, duration: 2 });
  const before = cpuSeconds(server.pid);
  const result = await load(options);
  const after = cpuSeconds(server.pid);
  const cpuMs =
    before === undefined || after === undefined || result.requests === 0
      ? undefined
      : ((after - before) * 1000) / result.requests;
  const rssBytes = residentBytes(server.pid);
  return { load: result, ...(cpuMs === undefined ? {} : { cpuMs }), ...(rssBytes === undefined ? {} : { rssBytes }) };
}

/** Requests/s, latency, statuses, CPU per request and resident memory on one line. */
export function describeMeasured(m: Measured): string {
  const cpu = m.cpuMs === undefined ? '' : `, ${m.cpuMs.toFixed(3)} ms CPU/request`;
  const rss = m.rssBytes === undefined ? '' : `, workerd RSS after ${(m.rssBytes / 2 ** 20).toFixed(0)} MiB`;
  return `${describeLoad(m.load)}${cpu}${rss}`;
}
