/**
 * The page isolate's V8 heap, read through workerd's inspector (tools/bench/inspector.ts): used and
 * total as the load left it (docs/benchmarks.md). Not after a forced collection: workerd never
 * answers `HeapProfiler.collectGarbage`, so what stays alive is not told apart from garbage.
 */
import { Inspector } from './inspector.ts';

export interface HeapUsage {
  /** V8 heap bytes in use. */
  usedBytes: number;
  /** V8 heap bytes reserved. */
  totalBytes: number;
}

async function usage(inspector: Inspector): Promise<HeapUsage> {
  const { usedSize, totalSize } = await inspector.send<{ usedSize: number; totalSize: number }>('Runtime.getHeapUsage');
  return { usedBytes: usedSize, totalBytes: totalSize };
}

/** Reads `worker`'s heap (default the production worker, `lander`). */
export async function isolateHeap(inspectorUrl: string, worker = 'lander'): Promise<HeapUsage> {
  const inspector = await Inspector.forWorker(inspectorUrl, worker);
  try {
    return await usage(inspector);
  } finally {
    inspector.close();
  }
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** `X MiB used of Y MiB`. */
export function describeHeap({ usedBytes, totalBytes }: HeapUsage): string {
  return `${mib(usedBytes)} used of ${mib(totalBytes)}`;
}
