/**
 * Figures of the build calls and of the browser code that loads after hydration (docs/builds.md,
 * docs/builds.md): what the lazy chunk and the debug console weigh (gzip), and `latest.json` under load.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../../scripts/lib/run.ts';
import type { BenchSection } from './context.ts';
import { describeLoad, load } from './load.ts';

interface ManifestChunk {
  file: string;
  imports?: string[];
}

const CLIENT = join(ROOT, 'dist/client');
const gzip = (file: string): number => gzipSync(readFileSync(join(CLIENT, file)), { level: 9 }).length;
const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

/** Files `source` loads that the entry has not loaded already. */
function lazyFiles(chunks: Record<string, ManifestChunk>, source: string, seen = new Set<string>()): string[] {
  if (seen.has(source) || source === 'client/browser/entry.tsx') return [];
  seen.add(source);
  const chunk = chunks[source];
  if (!chunk) return [];
  return [chunk.file, ...(chunk.imports ?? []).flatMap((imported) => lazyFiles(chunks, imported, seen))];
}

export const builds: BenchSection = {
  title: 'Builds and the browser after hydration',
  async run({ url, duration, connections }) {
    const chunks = JSON.parse(readFileSync(join(CLIENT, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      ManifestChunk
    >;
    const after = lazyFiles(chunks, 'client/browser/enhance.ts').reduce((sum, file) => sum + gzip(file), 0);
    const debug = [
      ...lazyFiles(chunks, 'client/browser/debug-console.ts'),
      ...lazyFiles(chunks, 'node_modules/vconsole/dist/vconsole.min.js'),
    ].reduce((sum, file) => sum + gzip(file), 0);
    const latest = await load({ url: `${url}/assets/builds/latest.json?${Date.now()}`, duration, connections });
    return [
      { name: 'After hydration: enhance + imports (gzip)', value: kB(after) },
      { name: 'Debug console, only with ?debug=1 (gzip)', value: kB(debug) },
      { name: 'GET /assets/builds/latest.json (from KV)', value: describeLoad(latest) },
    ];
  },
};
