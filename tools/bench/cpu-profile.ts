/**
 * A V8 CPU profile (`Profiler.stop` of the Chrome DevTools Protocol) as self time per function
 * (docs/benchmarks.md): each sample counts for the function on top of the stack. V8's own entries
 * — `(program)` (the runtime outside JavaScript), `(garbage collector)`, `(idle)` — keep their
 * names; built-ins (no script) are marked as such; bundled functions are named and placed by the
 * bundle's source map when there is one, as `name file:line` with the source file's base name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { basename, join } from 'node:path';

/** Where a profile node's function is, as V8 reports it (line and column zero-based). */
export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
}

/** The fields of a `Profiler.Profile` read here. */
export interface CpuProfile {
  nodes: ProfileNode[];
  /** The node on top of the stack at each sample; without it, each node's `hitCount` is used. */
  samples?: number[];
}

/** A function's place in its source: the original name when the bundle renamed it, the line one-based. */
export interface Place {
  name?: string;
  file: string;
  line: number;
}

/** Finds a bundled function's source place, if a source map tells. */
export type Locate = (frame: CallFrame) => Place | undefined;

export interface SelfTime {
  /** `name file:line`, `name (built-in)` or V8's own `(program)`, `(garbage collector)`. */
  label: string;
  samples: number;
  /** Of the non-idle samples, 0–1. */
  share: number;
}

export interface SelfTimes {
  /** Every function with a sample, idle left out, most samples first (ties by label). */
  functions: SelfTime[];
  /** Samples that were not `(idle)`. */
  busy: number;
  idle: number;
}

/** How one profile node is shown. */
export function functionLabel(frame: CallFrame, locate?: Locate): string {
  if (frame.url === '' && frame.functionName.startsWith('(')) return frame.functionName;
  const name = frame.functionName || '(anonymous)';
  if (frame.url === '') return `${name} (built-in)`;
  const place = locate?.(frame);
  if (!place) return `${name} ${basename(frame.url)}:${frame.lineNumber + 1}`;
  return `${place.name ?? name} ${basename(place.file)}:${place.line}`;
}

/** The profile's samples summed per function label. */
export function selfTimes(profile: CpuProfile, locate?: Locate): SelfTimes {
  const hits = new Map<number, number>();
  if (profile.samples) {
    for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  } else {
    for (const node of profile.nodes) hits.set(node.id, node.hitCount ?? 0);
  }
  const byLabel = new Map<string, number>();
  let idle = 0;
  for (const node of profile.nodes) {
    const count = hits.get(node.id) ?? 0;
    if (count === 0) continue;
    const label = functionLabel(node.callFrame, locate);
    if (label === '(idle)') idle += count;
    else byLabel.set(label, (byLabel.get(label) ?? 0) + count);
  }
  const busy = [...byLabel.values()].reduce((sum, n) => sum + n, 0);
  const functions = [...byLabel]
    .map(([label, samples]) => ({ label, samples, share: busy === 0 ? 0 : samples / busy }))
    .sort((a, b) => b.samples - a.samples || (a.label < b.label ? -1 : 1));
  return { functions, busy, idle };
}

/**
 * Places frames of the scripts in `dir` by their source maps (`<script>.map`, as wrangler writes
 * them). V8 places a function just after its name, so the mapping before that position is the
 * name's: its original name is taken only when it ends exactly there, else the frame keeps V8's.
 */
export function sourceMapLocator(dir: string): Locate {
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (url: string): SourceMap | undefined => {
    if (!maps.has(url)) {
      const path = join(dir, `${basename(url)}.map`);
      maps.set(
        url,
        existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, 'utf8')) as SourceMapPayload) : undefined,
      );
    }
    return maps.get(url);
  };
  return (frame) => {
    const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
    if (!entry || !('originalSource' in entry)) return undefined;
    const named =
      entry.generatedLine === frame.lineNumber &&
      entry.generatedColumn + frame.functionName.length === frame.columnNumber &&
      frame.functionName !== '';
    const name = named ? (entry as { name?: string }).name : undefined;
    return { file: entry.originalSource, line: entry.originalLine + 1, ...(name ? { name } : {}) };
  };
}
