/**
 * `npm run sdk:js`: bundles the JS SDK (sdk/js) into `sdk/js/dist` — one minified ESM file per entry
 * (the SDK, the React Native and Capacitor adapters) and their type declarations — and prints each
 * entry's gzip size; exits 1 when the SDK's own entry is over its 5 kB budget (docs/sdk.md).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { cliArgs, helpIfAsked } from './lib/cli-args.ts';
import { ROOT, runTool } from './lib/run.ts';

const SDK = join(ROOT, 'sdk/js');
/** The budget of the SDK's main entry, gzip -9. */
export const SDK_GZIP_BUDGET = 5 * 1024;

const ENTRIES = {
  index: 'src/index.ts',
  'react-native': 'src/adapters/react-native.ts',
  capacitor: 'src/adapters/capacitor.ts',
};

/** Each entry, bundled and minified as an app's bundler would take it: bytes and gzip -9 bytes. */
export async function bundleSdk(write = false): Promise<Record<string, { bytes: number; gzip: number }>> {
  const result = await build({
    absWorkingDir: SDK,
    entryPoints: ENTRIES,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    platform: 'neutral',
    outdir: join(SDK, 'dist'),
    write: false,
    logLevel: 'warning',
  });
  if (write) {
    mkdirSync(join(SDK, 'dist'), { recursive: true });
    for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
  }
  return Object.fromEntries(
    result.outputFiles.map((file) => [
      file.path.slice(join(SDK, 'dist').length + 1).replace(/\.js$/, ''),
      { bytes: file.contents.length, gzip: gzipSync(file.contents, { level: 9 }).length },
    ]),
  );
}

/**
 * The declarations in `sdk/js/dist/types`, their relative imports written `.js` as a published package
 * needs (the sources import `.ts`, which tsc keeps in declarations).
 */
function writeDeclarations(): void {
  const out = join(SDK, 'dist/types');
  runTool('tsc', [
    '-p',
    'sdk/js/tsconfig.json',
    '--composite',
    'false',
    '--declaration',
    '--emitDeclarationOnly',
    '--outDir',
    out,
  ]);
  for (const file of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.d.ts')) continue;
    const path = join(out, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/(from '\.{1,2}\/[^']+)\.ts'/g, "$1.js'"));
  }
}

if (import.meta.main) {
  helpIfAsked('sdk:js', {
    summary: `Bundles the JS SDK into sdk/js/dist (ESM, minified, with types) and checks its ${SDK_GZIP_BUDGET} B gzip budget.`,
    usage: 'usage: npm run sdk:js',
    flags: [],
    example: 'npm run sdk:js',
  });
  cliArgs('sdk:js', 'usage: npm run sdk:js', {});
  rmSync(join(SDK, 'dist'), { recursive: true, force: true });
  const sizes = await bundleSdk(true);
  for (const [name, size] of Object.entries(sizes)) {
    console.log(`sdk/js/dist/${name}.js: ${size.bytes} B minified, ${size.gzip} B gzip`);
  }
  writeDeclarations();
  const main = sizes.index?.gzip ?? Number.POSITIVE_INFINITY;
  if (main > SDK_GZIP_BUDGET) {
    console.error(`The SDK is ${main} B gzip, over its ${SDK_GZIP_BUDGET} B budget`);
    process.exit(1);
  }
}
