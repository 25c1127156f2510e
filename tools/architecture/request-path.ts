/**
 * The files a request for `/` crosses on the worker, measured rather than read off the import graph:
 * the production bundle (not minified, so its source map places every function) is served by workerd
 * as the benchmark serves it (tools/bench/serve.ts), and workerd's inspector (Chrome DevTools
 * Protocol) watches one request. A file is crossed when code of one of its functions runs.
 *
 * workerd answers `Profiler.enable` with its own CPU profiler and never enables V8's, so V8's precise
 * coverage (`Profiler.startPreciseCoverage`) is refused; breakpoints do the same job. Every function
 * of a product file gets a breakpoint where its body starts, and each pause records its file, so the
 * files come out in the order the request first calls them.
 */
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { captureTool, ROOT } from '../../scripts/lib/run.ts';
import { localSeed } from '../../scripts/seed-local.ts';
import { UA } from '../../tests/fixtures/agents.ts';
import { Inspector } from '../bench/inspector.ts';
import { serveProduction } from '../bench/serve.ts';

/** Files of the product's run-time folders (docs/architecture.md); packages and bundler glue are left out. */
const PRODUCT_FILE = /^(worker|client|shared)\/.+\.(ts|tsx)$/;

/** A zero-based position in a script, as the inspector counts it (UTF-16 code units per line). */
export interface Position {
  line: number;
  column: number;
}

/** A function of the bundle that comes from a product file. */
export interface BundleFunction {
  /** Repository-relative source file. */
  file: string;
  /** Where the function's body starts in the bundle: where its breakpoint goes. */
  body: Position;
}

/** Turns offsets into a text into line and column. */
export function positions(text: string): (offset: number) => Position {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low, column: offset - (starts[low] ?? 0) };
  };
}

/**
 * Every function of the bundle whose start the source map places in a product file. `mapDir` is the
 * map's directory (its `sources` are relative to it), `root` the repository.
 */
export function productFunctions(code: string, map: SourceMapPayload, mapDir: string, root: string): BundleFunction[] {
  const sourceMap = new SourceMap(map);
  const at = positions(code);
  const script = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const found: BundleFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = at(node.getStart(script));
      const entry = sourceMap.findEntry(start.line, start.column);
      // findEntry falls back to the nearest mapping before the position, possibly on an earlier
      // line; only a mapping on the function's own line places it.
      if ('originalSource' in entry && entry.generatedLine === start.line) {
        const file = relative(root, resolve(mapDir, entry.originalSource)).split(sep).join('/');
        const body = node.body as ts.Node;
        // Inside a block body's brace, so the breakpoint resolves inside this function.
        const offset = body.getStart(script) + (ts.isBlock(body) ? 1 : 0);
        if (PRODUCT_FILE.test(file)) found.push({ file, body: at(offset) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(script);
  return found;
}

/** The changes of folder along a path (`client/app` and `client/browser` count as two folders). */
export function folderChanges(files: string[]): number {
  const folderOf = (file: string): string => {
    const parts = file.split('/');
    return parts[0] === 'client' ? parts.slice(0, 2).join('/') : (parts[0] ?? file);
  };
  let changes = 0;
  for (let i = 1; i < files.length; i++) if (folderOf(files[i] ?? '') !== folderOf(files[i - 1] ?? '')) changes++;
  return changes;
}

/** A position in a script as the inspector reports it. */
interface Location {
  scriptId: string;
  lineNumber: number;
  columnNumber?: number;
}

function locationKey({ scriptId, lineNumber, columnNumber = 0 }: Location): string {
  return `${scriptId}:${lineNumber}:${columnNumber}`;
}

/** A file a request crossed. */
export interface CrossedFile {
  /** Repository-relative source file. */
  file: string;
  /** How many times the request called functions of the file. */
  calls: number;
}

/** The files one request crossed, in the order it first called them. */
async function crossedBy(
  inspector: Inspector,
  functions: BundleFunction[],
  url: string,
  request: () => Promise<void>,
): Promise<CrossedFile[]> {
  // Pauses are matched by where they stop, not by their `hitBreakpoints`: workerd reports ids there
  // that are not the breakpoint hit.
  const fileAt = new Map<string, string>();
  const ids: string[] = [];
  for (const { file, body } of functions) {
    const { breakpointId, locations } = await inspector.send<{ breakpointId: string; locations: Location[] }>(
      'Debugger.setBreakpointByUrl',
      { url, lineNumber: body.line, columnNumber: body.column },
    );
    for (const location of locations) fileAt.set(locationKey(location), file);
    ids.push(breakpointId);
  }
  const crossed = new Map<string, CrossedFile>();
  let failure: Error | undefined;
  let unplaced = 0;
  // Every pause is counted and resumed: a breakpoint where a body starts pauses once per call.
  // Breakpoints stay until the request is answered: removed while paused, workerd kept pausing on
  // them and missed later ones.
  inspector.on('Debugger.paused', (params) => {
    const { callFrames } = params as { callFrames: { location: Location }[] };
    const top = callFrames[0];
    const file = top ? fileAt.get(locationKey(top.location)) : undefined;
    if (file === undefined) unplaced++;
    else {
      const seen = crossed.get(file) ?? { file, calls: 0 };
      seen.calls++;
      crossed.set(file, seen);
    }
    inspector.send('Debugger.resume').catch((error: Error) => {
      failure = error;
    });
  });
  await request();
  // The request is answered: nothing may pause after this pass.
  inspector.on('Debugger.paused', () => void inspector.send('Debugger.resume'));
  for (const breakpointId of ids) await inspector.send('Debugger.removeBreakpoint', { breakpointId });
  if (failure) throw failure;
  // A pause no breakpoint explains means the path read off the pauses cannot be trusted.
  if (unplaced > 0) throw new Error(`${unplaced} pauses at no breakpoint of a product function`);
  if (crossed.size === 0) throw new Error('the request called no product function');
  return [...crossed.values()];
}

export interface RequestPaths {
  /** A page answered from the kept pages: every visit after the first with the same inputs. */
  kept: CrossedFile[];
  /** A page rendered for the first visit. */
  rendered: CrossedFile[];
}

export interface MeasureOptions {
  /** Where the unminified bundle and the server config go (default dist/architecture). */
  outDir?: string;
}

/**
 * Bundles the worker without minifying (so the source map places every function), serves it on
 * workerd with the inspector open, and records the files two requests for `/` from an iPhone cross:
 * the first renders the page, the second, the same request, is answered from the kept pages.
 */
export async function measureRequestPaths(options: MeasureOptions = {}): Promise<RequestPaths> {
  const outDir = options.outDir ?? join(ROOT, 'dist/architecture');
  const workerDir = join(outDir, 'worker');
  // The client build (`npm run build`) must exist: the worker bundles its manifests.
  captureTool('wrangler', ['deploy', '--dry-run', '--outdir', workerDir, '--env', 'production']);
  const bundlePath = join(workerDir, 'index.js');
  const mapPath = `${bundlePath}.map`;
  const functions = productFunctions(
    readFileSync(bundlePath, 'utf8'),
    JSON.parse(readFileSync(mapPath, 'utf8')) as SourceMapPayload,
    dirname(mapPath),
    ROOT,
  );
  if (functions.length === 0) throw new Error(`${mapPath} places no function in a product file`);

  const server = await serveProduction({ outDir, workerDir, kv: localSeed(), inspectorPort: 0 });
  let inspector: Inspector | undefined;
  try {
    inspector = await Inspector.forWorker(server.inspectorUrl ?? '', 'lander');
    await inspector.send('Debugger.enable');
    const request = async (): Promise<void> => {
      const response = await fetch(`${server.url}/`, { headers: { 'user-agent': UA.iPhoneSafari } });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`GET / answered ${response.status}: ${body.slice(0, 200)}`);
    };
    const rendered = await crossedBy(inspector, functions, 'index.js', request);
    const kept = await crossedBy(inspector, functions, 'index.js', request);
    return { kept, rendered };
  } catch (error) {
    throw new Error(`${(error as Error).message}\nworkerd:\n${server.logs()}`);
  } finally {
    inspector?.close();
    await server.stop();
  }
}

/** The measured paths as docs/architecture.md shows them. */
export function formatRequestPaths(paths: RequestPaths): string[] {
  const out: string[] = [
    '',
    'Files a request for / crosses on the worker, measured on workerd: the product files whose functions',
    'run, in the order first called, with how often their functions were called',
  ];
  const section = (title: string, crossed: CrossedFile[]): void => {
    const files = crossed.map(({ file }) => file);
    out.push('', `${title}: ${files.length} files, ${folderChanges(files)} folder changes`, '');
    crossed.forEach(({ file, calls }, i) => {
      out.push(`${String(i + 1).padStart(2)}. ${file} (${calls} ${calls === 1 ? 'call' : 'calls'})`);
    });
  };
  section('Request path of / for a kept page (the common case)', paths.kept);
  section('Request path of / for a rendered page (a first visit)', paths.rendered);
  return out;
}
