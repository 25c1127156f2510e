/**
 * Where the initial JavaScript of `/` comes from, by package: a second client build that puts each
 * npm package in its own chunk (into dist/bench/composition, so dist/client stays the measured one),
 * then gzip -9 of the chunks a first visit to `/` loads. Separate chunks compress a little worse than
 * the one real entry, so the parts add up to slightly more than the total; they show where the
 * budget goes (docs/benchmarks.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { ROOT } from '../../scripts/lib/run.ts';
import type { BenchSection } from './context.ts';
import { withStaticImports } from './sizes.ts';

const OUT = join(ROOT, 'dist/bench/composition');
const ENTRY = 'client/browser/entry.tsx';
const INDEX_SCREEN = 'client/app/download/download-page.tsx';

/** The npm package a module id belongs to, or undefined for the app's own code. */
export function packageOf(id: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1];
}

/** The chunk's label: `pkg_NAME-HASH.js` chunks are one package each (Vite hashes have 8 characters). */
export function chunkLabel(file: string): string {
  if (/\/rolldown-runtime-[\w-]{8}\.js$/.test(file)) return 'bundler runtime';
  return /\/pkg_(.+)-[\w-]{8}\.js$/.exec(file)?.[1]?.replace('__', '/') ?? 'app (entry + index screen)';
}

export const composition: BenchSection = {
  title: 'Initial JS of / by package (gzip -9, each package its own chunk)',
  async run() {
    await build({
      configFile: join(ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: {
        outDir: OUT,
        rollupOptions: {
          output: {
            manualChunks: (id: string) => {
              const name = packageOf(id);
              return name ? `pkg_${name.replace('/', '__')}` : undefined;
            },
          },
        },
      },
    });
    const manifest = JSON.parse(readFileSync(join(OUT, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string; imports?: string[] }
    >;
    const roots = [ENTRY, INDEX_SCREEN].flatMap((source) => (manifest[source] ? [`/${manifest[source].file}`] : []));
    const totals = new Map<string, number>();
    for (const file of withStaticImports(roots, manifest)) {
      const bytes = gzipSync(readFileSync(join(OUT, file)), { level: 9 }).length;
      totals.set(chunkLabel(file), (totals.get(chunkLabel(file)) ?? 0) + bytes);
    }
    return [...totals]
      .sort((a, b) => b[1] - a[1])
      .map(([name, bytes]) => ({ name, value: `${(bytes / 1000).toFixed(1)} kB` }));
  },
};
