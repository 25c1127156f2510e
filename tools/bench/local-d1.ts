/**
 * What the benches that run the worker's queues in Miniflare share: the repository's D1 migrations
 * as SQL, and a percentile of sorted figures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/run.ts';

/** The SQL of the repository's D1 migrations, in order, comment lines left out. */
export function migrationSql(): string {
  const dir = join(ROOT, 'migrations');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) =>
      readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n'),
    )
    .join('\n');
}

/** The `p`th percentile of `sorted` (ascending), the nearest rank; NaN for none. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
