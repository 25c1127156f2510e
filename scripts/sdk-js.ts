/**
 * `npm run sdk:js`: bundles the JS SDK (sdk/js) into `sdk/js/dist` — per entry (the SDK, the React
 * Native and Capacitor adapters) one minified ESM file (`.mjs`) and one CommonJS file (`.js`), and
 * their type declarations for both (`.d.mts`, `.d.ts`) — prints each file's gzip size, writes them
 * into docs/sdk.md's size table, and exits 1 when the SDK's own ESM entry is over its 5 kB budget.
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

/** The built files' extension: `.mjs` for ESM and `.js` for CommonJS, whatever the app's package says. */
export const EXTENSION = { esm: '.mjs', cjs: '.js' } as const;

export type SdkSizes = Record<string, { bytes: number; gzip: number }>;

/**
 * Each entry, bundled and minified as an app's bundler would take it (ESM, the budget's build) or as
 * `require()` loads it (CommonJS: Node, Jest, Metro): bytes and gzip -9 bytes, by entry name.
 */
export async function bundleSdk(write = false, format: 'esm' | 'cjs' = 'esm', dir = SDK): Promise<SdkSizes> {
  const result = await build({
    absWorkingDir: dir,
    entryPoints: ENTRIES,
    bundle: true,
    minify: true,
    format,
    target: 'es2020',
    platform: 'neutral',
    outdir: join(dir, 'dist'),
    outExtension: { '.js': EXTENSION[format] },
    write: false,
    logLevel: 'warning',
  });
  if (write) {
    mkdirSync(join(dir, 'dist'), { recursive: true });
    for (const file of result.outputFiles) writeFileSync(file.path, file.contents);
  }
  return Object.fromEntries(
    result.outputFiles.map((file) => [
      file.path.slice(join(dir, 'dist').length + 1).replace(/\.m?js$/, ''),
      { bytes: file.contents.length, gzip: gzipSync(file.contents, { level: 9 }).length },
    ]),
  );
}

const DOC = join(ROOT, 'docs/sdk.md');
const TABLE_START = '<!-- sizes: written by npm run sdk:js -->';
const TABLE_END = '<!-- /sizes -->';
const ENTRY_NAMES: Record<string, string> = {
  index: '@lander/sdk',
  'react-native': '@lander/sdk/react-native',
  capacitor: '@lander/sdk/capacitor',
};

/** docs/sdk.md's size table: each entry's ESM and CommonJS file, minified and gzip -9. */
export function sizesTable(esm: SdkSizes, cjs: SdkSizes): string {
  const n = (bytes: number | undefined) => `${(bytes ?? 0).toLocaleString('en-US')} B`;
  const cell = (size: SdkSizes[string] | undefined) => `${n(size?.gzip)} (${n(size?.bytes)} minified)`;
  const rows = [
    ['Entry', 'ESM (`.mjs`), gzip -9', 'CommonJS (`.js`), gzip -9'],
    ...Object.keys(ENTRIES).map((name) => [`\`${ENTRY_NAMES[name]}\``, cell(esm[name]), cell(cjs[name])]),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((text, column) => text.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const [head = [], ...body] = rows;
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

/** `doc` with the table between its markers replaced by `table`; throws when the markers are missing. */
export function withSizesTable(doc: string, table: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/sdk.md has no ${TABLE_START} … ${TABLE_END} block`);
  return `${doc.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${doc.slice(end)}`;
}

/** The size table docs/sdk.md holds now (between its markers). */
export function documentedSizesTable(): string {
  const doc = readFileSync(DOC, 'utf8');
  return doc.slice(doc.indexOf(TABLE_START) + TABLE_START.length, doc.indexOf(TABLE_END)).trim();
}

/**
 * The declarations in `sdk/js/dist/types`, their relative imports written as a published package
 * needs (the sources import `.ts`, which tsc keeps in declarations): `.d.ts` importing `.js` for
 * `require` and TypeScript's `node` resolution, and a `.d.mts` twin importing `.mjs` for `import`
 * under `node16` (a `.d.ts` there would describe a CommonJS file).
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
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/(from '\.{1,2}\/[^']+)\.ts'/g, "$1.js'"));
    writeFileSync(path.replace(/\.d\.ts$/, '.d.mts'), text.replace(/(from '\.{1,2}\/[^']+)\.ts'/g, "$1.mjs'"));
  }
}

/** Writes `sdk/js/dist` anew, both builds and the declarations: what `npm pack` of sdk/js packs. */
export async function buildSdk(): Promise<{ esm: SdkSizes; cjs: SdkSizes }> {
  rmSync(join(SDK, 'dist'), { recursive: true, force: true });
  const esm = await bundleSdk(true, 'esm');
  const cjs = await bundleSdk(true, 'cjs');
  writeDeclarations();
  return { esm, cjs };
}

if (import.meta.main) {
  helpIfAsked('sdk:js', {
    summary: `Bundles the JS SDK into sdk/js/dist (ESM and CommonJS, minified, with types), writes the sizes into docs/sdk.md and checks the ESM entry's ${SDK_GZIP_BUDGET} B gzip budget.`,
    usage: 'usage: npm run sdk:js',
    flags: [],
    example: 'npm run sdk:js',
  });
  cliArgs('sdk:js', 'usage: npm run sdk:js', {});
  const { esm: sizes, cjs } = await buildSdk();
  for (const [format, built] of [
    ['esm', sizes],
    ['cjs', cjs],
  ] as const) {
    for (const [name, size] of Object.entries(built)) {
      console.log(`sdk/js/dist/${name}${EXTENSION[format]}: ${size.bytes} B minified, ${size.gzip} B gzip`);
    }
  }
  writeFileSync(DOC, withSizesTable(readFileSync(DOC, 'utf8'), sizesTable(sizes, cjs)));
  const main = sizes.index?.gzip ?? Number.POSITIVE_INFINITY;
  if (main > SDK_GZIP_BUDGET) {
    console.error(`The SDK is ${main} B gzip, over its ${SDK_GZIP_BUDGET} B budget`);
    process.exit(1);
  }
}
