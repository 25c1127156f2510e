/**
 * `npm run bench -- --soak SECONDS` (default 300 with `--load`; issue 8, promise 7): a mixed load of
 * ordinary visits for that long while the workerd process's resident memory is sampled every 5 s.
 * Memory is steady when the highest sample of the last third is within 10% of the highest of the
 * first third — a leak grows through the whole run, a warm-up plateau does not.
 */
import type { BenchContext, BenchRow, BenchSection } from './context.ts';
import { type LoadResult, load } from './load.ts';
import { cycling, loadRow, visitRequests } from './load-modes.ts';
import { residentBytes } from './machine.ts';

const SAMPLE_MS = 5000;
/** Growth allowed between the first and the last third of the soak. */
export const STEADY_GROWTH = 0.1;

export interface MemoryVerdict {
  first: number;
  last: number;
  max: number;
  /** Highest sample of the first and of the last third. */
  early: number;
  late: number;
  steady: boolean;
}

/** Reads a series of resident-memory samples (bytes); needs at least three. */
export function memoryVerdict(samples: readonly number[]): MemoryVerdict | undefined {
  if (samples.length < 3) return undefined;
  const third = Math.max(1, Math.floor(samples.length / 3));
  const early = Math.max(...samples.slice(0, third));
  const late = Math.max(...samples.slice(-third));
  return {
    first: samples[0] ?? 0,
    last: samples.at(-1) ?? 0,
    max: Math.max(...samples),
    early,
    late,
    steady: late <= early * (1 + STEADY_GROWTH),
  };
}

const MiB = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

export function soak(seconds: number): BenchSection {
  return {
    title: `Memory soak (${seconds} s of mixed visits, workerd RSS every ${SAMPLE_MS / 1000} s)`,
    async run(context: BenchContext): Promise<BenchRow[]> {
      const samples: number[] = [];
      const sample = (): void => {
        const rss = residentBytes(context.server.pid);
        if (rss !== undefined) samples.push(rss);
      };
      sample();
      const timer = setInterval(sample, SAMPLE_MS);
      let result: LoadResult;
      try {
        result = await load({ ...cycling(context, 'soak.lua', visitRequests()), duration: seconds });
      } finally {
        clearInterval(timer);
      }
      sample();
      const rows: BenchRow[] = [loadRow(`Soak ${seconds} s`, result)];
      const verdict = memoryVerdict(samples);
      if (!verdict) {
        rows.push({ name: 'workerd resident memory', value: 'not measurable on this platform' });
        return rows;
      }
      rows.push({
        name: 'workerd RSS first / last / max',
        value: `${MiB(verdict.first)} / ${MiB(verdict.last)} / ${MiB(verdict.max)} (${samples.length} samples)`,
      });
      rows.push({
        name: 'Memory steady (late ≤ early + 10%)',
        value: `early max ${MiB(verdict.early)}, late max ${MiB(verdict.late)}`,
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
