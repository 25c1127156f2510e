/**
 * What the visitor and fingerprint ids (docs/identity.md) cost the browser. None of it may be in the
 * first visit's JavaScript: the identity chunk (resolution code + ofetch) and FingerprintJS are
 * fetched after the load event. ofetch is also measured alone, so its weight is known to any code
 * that would want it earlier.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';
import { ROOT } from '../../scripts/lib/run.ts';
import type { BenchSection } from './context.ts';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

const IDENTITY = 'client/browser/identity/start-identity.ts';
const FINGERPRINTJS = 'node_modules/@fingerprintjs/fingerprintjs/dist/fp.esm.js';

const gzip = (code: string | Buffer): number => gzipSync(code, { level: 9 }).length;
const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

/** `key` and every manifest key it imports statically, transitively. */
function staticClosure(manifest: Record<string, ManifestChunk>, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const next of manifest[key]?.imports ?? []) staticClosure(manifest, next, into);
  return into;
}

/** Manifest keys the entry loads statically (the entry and everything it imports). */
function initialKeys(manifest: Record<string, ManifestChunk>): Set<string> {
  const keys = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) staticClosure(manifest, key, keys);
  return keys;
}

/** ofetch bundled and minified on its own, as the client build would, in gzip bytes. */
async function ofetchAlone(): Promise<number> {
  const entry = '\0ofetch-alone';
  const result = await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    plugins: [
      {
        name: 'ofetch-alone',
        resolveId: (id) => (id === entry ? id : null),
        load: (id) => (id === entry ? "export { ofetch } from 'ofetch';" : null),
      },
    ],
    // Not written anywhere; outDir only keeps Vite away from dist/client.
    build: {
      write: false,
      outDir: 'dist/.ofetch-alone',
      emptyOutDir: false,
      minify: true,
      target: 'es2022',
      // 'strict' keeps the entry's export, so ofetch is not shaken away.
      rollupOptions: { input: entry, preserveEntrySignatures: 'strict' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs
    .flatMap((output) => output.output)
    .reduce((sum, item) => sum + (item.type === 'chunk' ? gzip(item.code) : 0), 0);
}

export const identity: BenchSection = {
  title: 'Identity (loaded after the load event)',
  async run() {
    const manifest: Record<string, ManifestChunk> = JSON.parse(
      readFileSync(join(ROOT, 'dist/client/.vite/manifest.json'), 'utf8'),
    );
    const size = (key: string): number => {
      const file = manifest[key]?.file;
      return file ? gzip(readFileSync(join(ROOT, 'dist/client', file))) : Number.NaN;
    };
    const initial = initialKeys(manifest);
    // The identity chunk and what it imports beyond the entry (ofetch may sit in a chunk of its own
    // when other deferred code shares it): all of it is fetched after the load event.
    const deferredKeys = [...staticClosure(manifest, IDENTITY), FINGERPRINTJS].filter((key) => !initial.has(key));
    const deferred = [IDENTITY, FINGERPRINTJS].every((key) => manifest[key] && deferredKeys.includes(key));
    const identityChunks = deferredKeys.filter((key) => key !== FINGERPRINTJS).reduce((sum, key) => sum + size(key), 0);
    return [
      { name: 'ofetch alone (min, gzip)', value: kB(await ofetchAlone()) },
      {
        name: 'Identity chunks incl. ofetch (gzip)',
        value: kB(identityChunks),
        budget: { limit: '≤ 8 kB', ok: identityChunks <= 8_000 },
      },
      { name: 'FingerprintJS chunk (gzip)', value: kB(size(FINGERPRINTJS)) },
      {
        name: 'Identity, ofetch, FingerprintJS in initial JS',
        value: deferred ? 'none' : 'PRESENT',
        budget: { limit: 'none', ok: deferred },
      },
    ];
  },
};
