/**
 * Nothing personal in KV or in the logs (docs/privacy.md#data-map): a static reading of the worker's
 * sources that finds every `console.*` call and every write to KV (`….KV.put(`, `kv.put(`) whose
 * arguments carry a personal value — an address, an agent, a raw visitor, install or user id: a
 * variable or field so named, or a read of the request's `cf-connecting-ip`, `x-forwarded-for` or
 * `user-agent` header. A value passed through a keyed hash (any call whose name says `hash`) or
 * reduced to a network (`networkOf`) is no longer the person's and passes. `tests/unit/personal-writes.test.ts`
 * runs it over `worker/` in `npm test` and shows it finding planted writes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Names of variables and fields that hold a raw personal value in the worker. */
export const PERSONAL_NAMES =
  /^(ip|ips|ipAddress|clientIp|address|remoteAddress|userAgent|agent|ua|visitorId|installId|userId|deviceId|fingerprint|fingerprintId|idfa|gaid|androidId)$/i;
/** Request headers whose value is personal. */
export const PERSONAL_HEADERS = /^(cf-connecting-ip|x-forwarded-for|x-real-ip|true-client-ip|user-agent)$/i;
/** Calls whose answer no longer names the person: keyed hashes, a network's bucket. */
const MASKS = /hash|networkOf/i;
const CONSOLE_METHODS = new Set(['log', 'error', 'warn', 'info', 'debug', 'trace']);

export interface PersonalWrite {
  file: string;
  line: number;
  /** `console.log`, `KV.put`. */
  sink: string;
  /** The personal value as written in the source. */
  value: string;
}

const nameOf = (node: ts.Node): string | undefined =>
  ts.isIdentifier(node) || ts.isPrivateIdentifier(node)
    ? node.text
    : ts.isPropertyAccessExpression(node)
      ? node.name.text
      : undefined;

/** The personal values `node` carries, as source text. */
function personalIn(node: ts.Node, source: ts.SourceFile): string[] {
  if (ts.isIdentifier(node)) return PERSONAL_NAMES.test(node.text) ? [node.text] : [];
  if (ts.isPropertyAccessExpression(node)) {
    if (node.name.text === 'length') return [];
    if (PERSONAL_NAMES.test(node.name.text)) return [node.getText(source)];
    return personalIn(node.expression, source);
  }
  if (ts.isPropertyAssignment(node)) return personalIn(node.initializer, source);
  if (ts.isShorthandPropertyAssignment(node)) return PERSONAL_NAMES.test(node.name.text) ? [node.name.text] : [];
  if (ts.isCallExpression(node)) {
    const callee = nameOf(node.expression) ?? '';
    if (MASKS.test(callee)) return [];
    const [first] = node.arguments;
    if ((callee === 'header' || callee === 'get') && first && ts.isStringLiteralLike(first)) {
      if (PERSONAL_HEADERS.test(first.text)) return [node.getText(source)];
    }
  }
  const found: string[] = [];
  node.forEachChild((child) => {
    found.push(...personalIn(child, source));
  });
  return found;
}

/** The sink a call writes to, or undefined: `console.<method>`, or `put` on KV. */
function sinkOf(call: ts.CallExpression, source: ts.SourceFile): string | undefined {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  const method = callee.name.text;
  const target = callee.expression.getText(source);
  if (target === 'console' && CONSOLE_METHODS.has(method)) return `console.${method}`;
  if (method === 'put' && /(^|\.)(KV|kv)$/.test(target)) return 'KV.put';
  return undefined;
}

/** The personal writes of one source text. */
export function personalWritesIn(file: string, text: string): PersonalWrite[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const writes: PersonalWrite[] = [];
  const walk = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const sink = sinkOf(node, source);
      if (sink) {
        for (const argument of node.arguments) {
          for (const value of personalIn(argument, source)) {
            const line = source.getLineAndCharacterOfPosition(argument.getStart(source)).line + 1;
            writes.push({ file, line, sink, value });
          }
        }
      }
    }
    node.forEachChild(walk);
  };
  walk(source);
  return writes;
}

/** The TypeScript sources under `dir`, recursively. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The personal writes of every source under `dir` (paths relative to `root`). */
export function personalWritesUnder(root: string, dir: string): PersonalWrite[] {
  return sourcesUnder(join(root, dir)).flatMap((path) =>
    personalWritesIn(relative(root, path), readFileSync(path, 'utf8')),
  );
}

/** One line per write: `<file>:<line> console.log writes userId`. */
export const formatWrites = (writes: readonly PersonalWrite[]): string =>
  writes.map((write) => `${write.file}:${write.line} ${write.sink} writes ${write.value}`).join('\n');
