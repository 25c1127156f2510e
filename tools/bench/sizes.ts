/** Bytes a first visit to `/` loads as JavaScript, and the worker bundle, both gzip -9. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../../scripts/lib/run.ts';
import { compile, writeJar } from '../../scripts/sdk-android.ts';
import { bundleSdk, SDK_GZIP_BUDGET } from '../../scripts/sdk-js.ts';
import type { BenchSection } from './context.ts';
import { IPHONE_UA } from './context.ts';

const gzip = (buffer: Buffer): number => gzipSync(buffer, { level: 9 }).length;
const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB (${bytes} B)`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const attribute = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** Module scripts a page's HTML makes the browser load: `type="module"` scripts and modulepreloads. */
export function moduleScripts(html: string): string[] {
  const found = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const isModule = tag.startsWith('<script')
      ? attribute(tag, 'type') === 'module'
      : attribute(tag, 'rel') === 'modulepreload';
    const url = tag.startsWith('<script') ? attribute(tag, 'src') : attribute(tag, 'href');
    if (isModule && url) found.add(url);
  }
  return [...found];
}

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** The scripts plus every chunk they import statically (the browser loads those before running them). */
export function withStaticImports(scripts: string[], manifest: Record<string, ManifestChunk>): string[] {
  const byFile = new Map(Object.values(manifest).map((chunk) => [`/${chunk.file}`, chunk]));
  const all = new Set<string>();
  const visit = (file: string): void => {
    if (all.has(file)) return;
    all.add(file);
    for (const source of byFile.get(file)?.imports ?? []) {
      const imported = manifest[source];
      if (imported) visit(`/${imported.file}`);
    }
  };
  for (const script of scripts) visit(script);
  return [...all];
}

/** The JS SDK's main entry (minified ESM and CommonJS, gzip -9) and the Android SDK's jar (docs/sdk.md). */
async function sdkSizes() {
  const js = (await bundleSdk()).index?.gzip ?? Number.POSITIVE_INFINITY;
  const cjs = (await bundleSdk(false, 'cjs')).index?.gzip ?? Number.POSITIVE_INFINITY;
  let jar: string;
  try {
    compile();
    jar = `${writeJar()} B`;
  } catch (error) {
    jar = `not built: ${error instanceof Error ? error.message : String(error)}`;
  }
  return [
    { name: 'JS SDK (sdk/js, minified ESM)', value: kB(js), budget: { limit: '≤ 5 kB', ok: js <= SDK_GZIP_BUDGET } },
    {
      name: 'JS SDK (sdk/js, minified CommonJS, for require)',
      value: kB(cjs),
      budget: { limit: '≤ 5 kB', ok: cjs <= SDK_GZIP_BUDGET },
    },
    { name: 'Android SDK jar (sdk/android)', value: jar },
  ];
}

export const sizes: BenchSection = {
  title: 'Sizes (gzip -9)',
  async run({ url }) {
    const html = await (await fetch(`${url}/`, { headers: { 'user-agent': IPHONE_UA } })).text();
    const clientDir = join(ROOT, 'dist/client');
    const manifest = JSON.parse(readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      ManifestChunk
    >;
    const scripts = withStaticImports(moduleScripts(html), manifest);
    const files = scripts.map((path) => readFileSync(join(clientDir, path)));
    const initial = files.reduce((sum, file) => sum + gzip(file), 0);
    const minified = files.reduce((sum, file) => sum + file.length, 0);
    const worker = filesUnder(join(ROOT, 'dist/worker'))
      .filter((path) => /\.m?js$/.test(path))
      .reduce((sum, path) => sum + gzip(readFileSync(path)), 0);
    return [
      {
        name: `Initial JS of / (${scripts.length} files, ${(minified / 1000).toFixed(1)} kB minified)`,
        value: kB(initial),
        budget: { limit: '≤ 100 kB', ok: initial <= 100_000 },
      },
      { name: 'Worker bundle', value: kB(worker), budget: { limit: '≤ 350 kB', ok: worker <= 350_000 } },
      ...(await sdkSizes()),
    ];
  },
};
