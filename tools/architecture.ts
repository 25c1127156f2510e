/**
 * Figures and import-graph facts of the product code, for docs/architecture.md: files and lines per
 * folder, the modules the worker loads for `/`, the folder import rules, and import cycles. Prints them
 * and writes them to docs/generated/architecture.md (a tools test checks that file against the code).
 * Exits non-zero when it finds a cycle, a broken folder rule, a folder cycle inside `worker/`, a
 * wing importing another wing without a declared use (tools/architecture/wings.ts), a console room
 * importing another room, or a console function over 80 lines (tools/architecture/console-rooms.ts).
 *
 *   npm run architecture
 *   npm run architecture -- --request-path   # also the files a request for / crosses, measured on
 *                                            # workerd (tools/architecture/request-path.ts), written to
 *                                            # docs/generated/request-path.md; needs `npm run build`
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';
import { CONSOLE, longFunctionsIn, MAX_FUNCTION_LINES, roomBreaks } from './architecture/console-rooms.ts';
import { formatRequestPaths, measureRequestPaths } from './architecture/request-path.ts';
import { folderCycles, hubBreaks, mutualWings, WING_USES, wingBreaks } from './architecture/wings.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The product folders, figured separately. */
export const PRODUCT_FOLDERS = ['worker', 'client', 'shared', 'scripts'] as const;
/** Every folder whose imports are graphed (cycles and folder rules). */
const GRAPHED_FOLDERS = [...PRODUCT_FOLDERS, 'tools', 'tests', 'sdk'];
const SOURCE = /\.(ts|tsx)$/;
const FIGURED = /\.(ts|tsx|css)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.wrangler', 'screenshots']);

/** The worker's entry, where every request starts. */
export const WORKER_ENTRY = 'worker/index.ts';
/** The lazy screen `/` renders: the only `import()` the request path of `/` follows. */
export const DOWNLOAD_SCREEN = 'client/app/download/download-page.tsx';

/**
 * What each folder may import (docs/architecture.md), by path prefix; a file outside every prefix
 * here is not checked. The first matching prefix wins, so the more specific ones come first.
 */
const FOLDER_RULES: { folder: string; may: string[] }[] = [
  { folder: 'shared/', may: ['shared/'] },
  { folder: 'client/app/', may: ['client/app/', 'shared/'] },
  { folder: 'client/browser/', may: ['client/browser/', 'client/app/', 'shared/'] },
  // The worker also reads the client build's manifests (dist/client/.vite).
  { folder: 'worker/', may: ['worker/', 'client/app/', 'shared/', 'dist/client/'] },
  { folder: 'scripts/', may: ['scripts/', 'worker/', 'client/', 'shared/'] },
  // An app SDK is a package of its own: it imports nothing of the product (docs/sdk.md).
  { folder: 'sdk/js/', may: ['sdk/js/'] },
  { folder: 'tools/', may: ['tools/', 'scripts/', 'worker/', 'client/', 'shared/', 'tests/fixtures/'] },
];

export interface Import {
  /** Repository-relative path of the imported file. */
  target: string;
  /** `import()`, evaluated only when called. */
  lazy: boolean;
  /** `import type` and `export type`: gone at run time. */
  typeOnly: boolean;
}

/** Repository-relative file → the repository files it imports (bare package imports left out). */
export type ImportGraph = Map<string, Import[]>;

export interface FolderFigures {
  folder: string;
  files: number;
  lines: number;
  largest: { file: string; lines: number } | null;
}

function posix(path: string): string {
  return path.split(sep).join('/');
}

/** Repository-relative paths of the files under `folder` whose names match `pattern`. */
export function listFiles(root: string, folder: string, pattern: RegExp): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED_DIRS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (pattern.test(entry.name)) found.push(posix(relative(root, path)));
    }
  };
  walk(join(root, folder));
  return found.sort();
}

function countLines(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Files, lines and the largest file of each folder's TypeScript and CSS, and their total. */
export function figures(root: string, folders: readonly string[] = PRODUCT_FOLDERS): FolderFigures[] {
  const rows = folders.map((folder): FolderFigures => {
    const row: FolderFigures = { folder, files: 0, lines: 0, largest: null };
    for (const file of listFiles(root, folder, FIGURED)) {
      const lines = countLines(readFileSync(join(root, file), 'utf8'));
      row.files += 1;
      row.lines += lines;
      if (!row.largest || lines > row.largest.lines) row.largest = { file, lines };
    }
    return row;
  });
  const total: FolderFigures = { folder: 'total', files: 0, lines: 0, largest: null };
  for (const row of rows) {
    total.files += row.files;
    total.lines += row.lines;
    if (row.largest && (!total.largest || row.largest.lines > total.largest.lines)) total.largest = row.largest;
  }
  return [...rows, total];
}

/** The module specifiers a file names, read with the TypeScript parser. */
export function parseImports(
  fileName: string,
  text: string,
): { specifier: string; lazy: boolean; typeOnly: boolean }[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const found: { specifier: string; lazy: boolean; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const namedOnlyTypes =
        clause !== undefined &&
        clause.name === undefined &&
        clause.namedBindings !== undefined &&
        ts.isNamedImports(clause.namedBindings) &&
        clause.namedBindings.elements.length > 0 &&
        clause.namedBindings.elements.every((element) => element.isTypeOnly);
      found.push({
        specifier: node.moduleSpecifier.text,
        lazy: false,
        typeOnly: clause?.isTypeOnly === true || namedOnlyTypes,
      });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, lazy: false, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, lazy: true, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveRelative(root: string, from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(root, dirname(from), specifier.replace(/\?.*$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return posix(relative(root, candidate));
  }
  return null;
}

/** The import graph of the TypeScript files under `folders`. */
export function importGraph(root: string, folders: readonly string[] = GRAPHED_FOLDERS): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const folder of folders) {
    for (const file of listFiles(root, folder, SOURCE)) {
      const imports: Import[] = [];
      for (const { specifier, lazy, typeOnly } of parseImports(file, readFileSync(join(root, file), 'utf8'))) {
        const target = resolveRelative(root, file, specifier);
        if (target !== null) imports.push({ target, lazy, typeOnly });
      }
      graph.set(file, imports);
    }
  }
  return graph;
}

/**
 * Every cycle of static imports (type-only ones included: a cycle of types still ties two modules
 * together), each as the files in import order with the first repeated at the end.
 */
export function findCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const { target, lazy } of graph.get(file) ?? []) {
      if (lazy) continue;
      const seen = state.get(target);
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target]);
      else if (seen === undefined) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/**
 * The TypeScript modules a request for `/` loads on the worker, in the order they are first reached:
 * run-time static imports from the worker's entry, plus the download screen's lazy chunk.
 */
export function requestPath(graph: ImportGraph, entry = WORKER_ENTRY, screen = DOWNLOAD_SCREEN): string[] {
  const reached: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file) || !SOURCE.test(file)) return;
    seen.add(file);
    reached.push(file);
    for (const { target, lazy, typeOnly } of graph.get(file) ?? []) {
      if (typeOnly) continue;
      if (lazy && target !== screen) continue;
      visit(target);
    }
  };
  visit(entry);
  return reached;
}

/** Imports that break a folder rule, as `from → to`. */
export function ruleBreaks(graph: ImportGraph): string[] {
  const breaks: string[] = [];
  for (const [file, imports] of graph) {
    const rule = FOLDER_RULES.find(({ folder }) => file.startsWith(folder));
    if (!rule) continue;
    for (const { target } of imports) {
      if (!rule.may.some((prefix) => target.startsWith(prefix))) breaks.push(`${file} → ${target}`);
    }
  }
  return breaks.sort();
}

function folderOf(file: string): string {
  const parts = file.split('/');
  return parts[0] === 'client' ? parts.slice(0, 2).join('/') : (parts[0] ?? file);
}

/** The generated pages, repository-relative (docs/architecture.md links them). */
export const FIGURES_PAGE = 'docs/generated/architecture.md';
export const REQUEST_PATH_PAGE = 'docs/generated/request-path.md';

/** A generated page: a title, where it comes from, then the tool's lines. */
function page(title: string, command: string, lines: string[]): string {
  const from = `Written by \`${command}\` (tools/architecture.ts); do not edit. What it shows: [architecture.md](../architecture.md).`;
  return `# ${title} (generated)\n\n${from}\n\n${lines.join('\n').trim()}\n`;
}

/** The import-graph figures of the code as it is: the text of docs/generated/architecture.md. */
export function architectureFigures(root: string): { text: string; failed: boolean } {
  const graph = importGraph(root);
  const out: string[] = [];
  out.push('Product code (TypeScript and CSS)', '');
  out.push('| Folder | Files | Lines | Largest file |', '|---|---:|---:|---|');
  for (const row of figures(root)) {
    const largest = row.largest ? `${row.largest.file} (${row.largest.lines})` : '–';
    out.push(`| ${row.folder} | ${row.files} | ${row.lines} | ${largest} |`);
  }
  const path = requestPath(graph);
  let folderChanges = 0;
  for (let i = 1; i < path.length; i++) if (folderOf(path[i] ?? '') !== folderOf(path[i - 1] ?? '')) folderChanges++;
  out.push(
    '',
    `Modules loaded for / (static imports of ${WORKER_ENTRY} and the download screen): ${path.length} modules, ${folderChanges} folder changes`,
    '',
  );
  path.forEach((file, i) => {
    out.push(`${String(i + 1).padStart(2)}. ${file}`);
  });
  const cycles = findCycles(graph);
  const breaks = ruleBreaks(graph);
  const fromHubs = hubBreaks(graph);
  const folderLoops = folderCycles(graph);
  const pairs = mutualWings(graph);
  const acrossWings = wingBreaks(graph);
  out.push('', `Import cycles: ${cycles.length}`, '');
  for (const cycle of cycles) out.push(`- ${cycle.join(' → ')}`);
  out.push(`Folder rule breaks: ${breaks.length}`, '');
  for (const line of breaks) out.push(`- ${line}`);
  out.push(`Arrows from a hub into a wing: ${fromHubs.length}`, '');
  for (const line of fromHubs) out.push(`- ${line}`);
  out.push(`Folder cycles inside worker/: ${folderLoops.length}`, '');
  for (const group of folderLoops) out.push(`- ${group.join(' ⇄ ')}`);
  out.push(`Pairs of wings importing each other: ${pairs.length}`, '');
  for (const pair of pairs) out.push(`- ${pair}`);
  out.push(`Arrows from a wing into another wing, not declared: ${acrossWings.length}`, '');
  for (const line of acrossWings) out.push(`- ${line}`);
  const acrossRooms = roomBreaks(graph);
  const longFunctions = listFiles(root, CONSOLE, SOURCE).flatMap((file) =>
    longFunctionsIn(file, readFileSync(join(root, file), 'utf8')),
  );
  out.push(`Console rooms importing another room or the dashboard: ${acrossRooms.length}`, '');
  for (const line of acrossRooms) out.push(`- ${line}`);
  out.push(`Console functions over ${MAX_FUNCTION_LINES} lines: ${longFunctions.length}`, '');
  for (const line of longFunctions) out.push(`- ${line}`);
  out.push('Declared one-way uses of a wing by another:', '');
  for (const [wing, { uses, why }] of Object.entries(WING_USES)) out.push(`- ${wing} → ${uses.join(', ')}: ${why}`);
  return {
    text: page('Architecture figures', 'npm run architecture', out),
    failed:
      cycles.length > 0 ||
      breaks.length > 0 ||
      fromHubs.length > 0 ||
      folderLoops.length > 0 ||
      pairs.length > 0 ||
      acrossWings.length > 0 ||
      acrossRooms.length > 0 ||
      longFunctions.length > 0,
  };
}

async function report(root: string, measure: boolean): Promise<number> {
  const { text, failed } = architectureFigures(root);
  console.log(text);
  writeFileSync(join(root, FIGURES_PAGE), text);
  if (measure) {
    const measured = formatRequestPaths(await measureRequestPaths());
    console.log(measured.join('\n'));
    writeFileSync(
      join(root, REQUEST_PATH_PAGE),
      page('Request path of /', 'npm run build && npm run architecture -- --request-path', measured),
    );
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'request-path': { type: 'boolean', default: false } } });
  process.exitCode = await report(ROOT, values['request-path']);
}
