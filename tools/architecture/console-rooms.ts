/**
 * The console's house rules (docs/architecture.md#the-console-one-room-per-panel), read from the
 * import graph and the code: each panel of `client/app/admin/` is a sub-room (`funnel/`, `links/`,
 * `webhooks/`…) that imports only itself and the console's shared part (`shared/`), never another
 * room; the shared part imports no room; and no function there is longer than 80 lines.
 */
import ts from 'typescript';

/** The console's folder; its files outside a sub-folder are the composer (the page, the dashboard). */
export const CONSOLE = 'client/app/admin/';
/** The console's shared part: what every room may use. */
export const CONSOLE_SHARED = `${CONSOLE}shared/`;
/** The most lines a function of the console may span, its signature and closing brace included. */
export const MAX_FUNCTION_LINES = 80;

/** What these rules read of the import graph (tools/architecture.ts `ImportGraph`). */
export type Graph = Map<string, readonly { target: string }[]>;

/** The console sub-folder a file is in (`links` for `client/app/admin/links/…`), or null for the composer's own files. */
export function roomOf(file: string): string | null {
  if (!file.startsWith(CONSOLE)) return null;
  const parts = file.slice(CONSOLE.length).split('/');
  return parts.length > 1 ? (parts[0] ?? null) : null;
}

/**
 * Imports from a console room into another room or into the composer, and from the shared part into
 * any room or the composer, as `from → to`.
 */
export function roomBreaks(graph: Graph): string[] {
  const breaks: string[] = [];
  for (const [file, imports] of graph) {
    const from = roomOf(file);
    if (from === null) continue;
    for (const { target } of imports) {
      if (!target.startsWith(CONSOLE)) continue;
      const to = roomOf(target);
      if (to === from || to === 'shared') continue;
      breaks.push(`${file} → ${target}`);
    }
  }
  return breaks.sort();
}

/** A function's name as a reader finds it: its own, its variable's, its property's, or `(anonymous)`. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return '(anonymous)';
}

/** The functions of one file longer than `max` lines, as `file:line name (N lines)`. */
export function longFunctionsIn(file: string, text: string, max = MAX_FUNCTION_LINES): string[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max)
        found.push(`${file}:${first + 1} ${nameOf(node as ts.FunctionLikeDeclaration)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
