/**
 * `npm run bench:lab -- --soak SECONDS` (default 300 with `--load`; docs/benchmarks.md): a mixed load of
 * ordinary visits for that long while the workerd process's resident memory is sampled every 5 s.
 * A fresh isolate's heap grows for the first minute or two of load before V8 settles (measured:
 * `/` alone rose from 150 to 340 MiB in two minutes, then held at 310–320 MiB for two more), so the
 * verdict leaves out a warm-up (the first quarter of the soak, at least 30 s) and calls memory
 * steady when the highest sample of the second half of the rest is within 10% of the highest of its
 * first half — a leak keeps growing through both, a plateau does not.
 */
import { attributionRequests } from './attribution-requests.ts';
import type { BenchContext, BenchRow, BenchSection } from './context.ts';
import { describeHeap, type HeapUsage, isolateHeap } from './heap.ts';
import { type LoadResult, load } from './load.ts';
import { cycling, loadRow, visitRequests } from './load-modes.ts';
import { residentBytes } from './machine.ts';

const SAMPLE_MS = 5000;
/** Growth allowed between the two halves of the soak after its warm-up. */
export const STEADY_GROWTH = 0.1;

export interface MemoryVerdict {
  first: number;
  last: number;
  max: number;
  /** Highest sample of the first and of the second half after the warm-up. */
  early: number;
  late: number;
  steady: boolean;
}

/**
 * Reads a series of resident-memory samples (bytes), the first `warmup` of them left out of the
 * verdict; needs at least four samples after the warm-up.
 */
export function memoryVerdict(samples: readonly number[], warmup = 0): MemoryVerdict | undefined {
  const measured = samples.slice(warmup);
  if (measured.length < 4) return undefined;
  const half = Math.floor(measured.length / 2);
  const early = Math.max(...measured.slice(0, half));
  const late = Math.max(...measured.slice(half));
  return {
    first: samples[0] ?? 0,
    last: samples.at(-1) ?? 0,
    max: Math.max(...samples),
    early,
    late,
    steady: late <= early * (1 + STEADY_GROWTH),
  };
}

/** Samples of the warm-up: the first quarter of the soak, at least 30 s. */
export function warmupSamples(seconds: number): number {
  return Math.ceil((Math.max(30, seconds / 4) * 1000) / SAMPLE_MS);
}

const MiB = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

export function soak(seconds: number): BenchSection {
  return {
    title: `Memory soak (${seconds} s of mixed visits with taps, installs and events, workerd RSS every ${SAMPLE_MS / 1000} s)`,
    async run(context: BenchContext): Promise<BenchRow[]> {
      const samples: number[] = [];
      const sample = (): void => {
        const rss = residentBytes(context.server.pid);
        if (rss !== undefined) samples.push(rss);
      };
      const heap = async (): Promise<HeapUsage | null> =>
        context.server.inspectorUrl ? isolateHeap(context.server.inspectorUrl).catch(() => null) : null;
      const heapBefore = await heap();
      sample();
      const timer = setInterval(sample, SAMPLE_MS);
      let result: LoadResult;
      try {
        result = await load({
          ...cycling(context, 'soak.lua', [...visitRequests(), ...attributionRequests()]),
          duration: seconds,
        });
      } finally {
        clearInterval(timer);
      }
      sample();
      const heapAfter = await heap();
      const rows: BenchRow[] = [loadRow(`Soak ${seconds} s`, result)];
      rows.push({
        name: 'The page isolate’s V8 heap, start / end',
        value: heapBefore && heapAfter ? `${describeHeap(heapBefore)} / ${describeHeap(heapAfter)}` : 'no inspector',
      });
      const warmup = warmupSamples(seconds);
      const verdict = memoryVerdict(samples, warmup);
      if (!verdict) {
        rows.push({ name: 'workerd resident memory', value: 'not measurable on this platform' });
        return rows;
      }
      rows.push({
        name: 'workerd RSS first / last / max',
        value: `${MiB(verdict.first)} / ${MiB(verdict.last)} / ${MiB(verdict.max)} (${samples.length} samples)`,
      });
      rows.push({
        name: 'Memory steady after warm-up (late ≤ early + 10%)',
        value: `warm-up ${(warmup * SAMPLE_MS) / 1000} s; early max ${MiB(verdict.early)}, late max ${MiB(verdict.late)}`,
        budget: { limit: 'steady', ok: verdict.steady },
      });
      const every = Math.max(1, Math.round(30_000 / SAMPLE_MS));
      rows.push({
        name: 'RSS every 30 s',
        value: samples
          .filter((_, i) => i % every === 0)
          .map((bytes) => (bytes / 2 ** 20).toFixed(0))
          .join(' '),
      });
      return rows;
    },
  };
}
