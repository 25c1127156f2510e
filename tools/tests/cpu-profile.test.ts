/** The CPU profile section's pieces: self time per function, labels, source map places and its rows. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { type CallFrame, type CpuProfile, functionLabel, selfTimes, sourceMapLocator } from '../bench/cpu-profile.ts';
import { profileRows, TOP } from '../bench/profile.ts';

const frame = (functionName: string, url = '', lineNumber = -1, columnNumber = -1): CallFrame => ({
  functionName,
  url,
  lineNumber,
  columnNumber,
});

/** root → (program), (idle), (garbage collector), Response, handle → render; render also under a second stack. */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)') },
    { id: 2, callFrame: frame('(program)') },
    { id: 3, callFrame: frame('(idle)') },
    { id: 4, callFrame: frame('(garbage collector)') },
    { id: 5, callFrame: frame('Response') },
    { id: 6, callFrame: frame('handle', 'index.js', 9, 40) },
    { id: 7, callFrame: frame('render', 'index.js', 3, 12) },
    { id: 8, callFrame: frame('render', 'index.js', 3, 12) },
  ],
  samples: [3, 3, 3, 3, 7, 7, 8, 2, 2, 5, 4, 6, 7, 3],
};

describe('self time per function', () => {
  it('ranks functions by their samples, idle left out of the ranking and of the shares', () => {
    const { functions, busy, idle } = selfTimes(PROFILE);
    expect({ busy, idle }).toEqual({ busy: 9, idle: 5 });
    expect(functions.map(({ label, samples }) => [label, samples])).toEqual([
      ['render index.js:4', 4],
      ['(program)', 2],
      ['(garbage collector)', 1],
      ['Response (built-in)', 1],
      ['handle index.js:10', 1],
    ]);
    expect(functions[0]?.share).toBeCloseTo(4 / 9);
  });

  it('counts each node’s hitCount when the profile has no samples', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)'), hitCount: 3 },
        { id: 2, callFrame: frame('a', 'index.js', 0, 5), hitCount: 1 },
        { id: 3, callFrame: frame('b', 'index.js', 1, 5), hitCount: 3 },
      ],
    };
    expect(selfTimes(profile).functions.map((f) => [f.label, f.share])).toEqual([
      ['b index.js:2', 0.75],
      ['a index.js:1', 0.25],
    ]);
  });

  it('names and places bundled functions by the locator, summing what it places together', () => {
    const locate = (f: CallFrame) =>
      f.url === 'index.js' ? { name: 'renderPage', file: 'worker/page.tsx', line: 7 } : undefined;
    const functions = selfTimes(PROFILE, locate).functions;
    expect(functions[0]).toMatchObject({ label: 'renderPage page.tsx:7', samples: 5 });
    expect(functions.map((f) => f.label)).not.toContain('handle index.js:10');
  });

  it('labels anonymous functions, built-ins and V8’s own entries apart', () => {
    expect(functionLabel(frame('', 'index.js', 0, 3))).toBe('(anonymous) index.js:1');
    expect(functionLabel(frame(''))).toBe('(anonymous) (built-in)');
    expect(functionLabel(frame('(garbage collector)'))).toBe('(garbage collector)');
    expect(functionLabel(frame('get', 'node-internal:internal_timers', 4, 1))).toBe(
      'get node-internal:internal_timers:5',
    );
  });
});

describe('places from the bundle’s source map', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lander-profile-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const source = [
    'export function outer() {',
    '  function doubleIt(value: number) {',
    '    return value * 2;',
    '  }',
    '  return doubleIt;',
    '}',
  ].join('\n');
  const { code, map } = transformSync(source, {
    loader: 'ts',
    minify: true,
    sourcemap: 'external',
    sourcefile: 'worker/thing.ts',
  });
  writeFileSync(join(dir, 'bundle.js.map'), map);
  const locate = sourceMapLocator(dir);
  // V8 places a function just after its name: at the parenthesis of `function n(`.
  const renamed = /function (\w)\(/.exec(code);
  const at = (renamed?.index ?? 0) + (renamed?.[0].length ?? 0) - 1;

  it('gives a renamed function its source name, file and line', () => {
    expect(renamed?.[1]).not.toBe('doubleIt');
    const label = functionLabel(frame(renamed?.[1] ?? '', 'bundle.js', 0, at), locate);
    expect(label).toBe('doubleIt thing.ts:2');
  });

  it('keeps V8’s name when the name before the position is not the function’s', () => {
    expect(functionLabel(frame('', 'bundle.js', 0, at), locate)).toBe('(anonymous) thing.ts:2');
    expect(functionLabel(frame('outer', 'bundle.js', 0, code.indexOf('outer(') + 5), locate)).toBe('outer thing.ts:1');
  });

  it('leaves scripts without a map where V8 put them', () => {
    expect(functionLabel(frame('x', 'other.js', 2, 0), locate)).toBe('x other.js:3');
  });
});

describe('the profile rows', () => {
  const load = {
    tool: 'wrk' as const,
    requestsPerSecond: 100,
    requests: 500,
    p50: 1,
    p99: 2,
    non2xx3xx: 0,
    socketErrors: 0,
  };

  it('prints the reason as the row when workerd refused the profiler', () => {
    expect(profileRows('GET /', 'workerd refused the profiler: no')).toEqual([
      { name: 'GET /', value: 'workerd refused the profiler: no' },
    ]);
  });

  it('prints the load, then the top functions with their share of busy samples', () => {
    const rows = profileRows('GET /', { load, profile: PROFILE });
    expect(rows[0]?.value).toContain('9 samples, 5 more idle');
    expect(rows.slice(1).map((r) => [r.name.trim(), r.value])).toEqual([
      ['1.  44.4 %', 'render index.js:4'],
      ['2.  22.2 %', '(program)'],
      ['3.  11.1 %', '(garbage collector)'],
      ['4.  11.1 %', 'Response (built-in)'],
      ['5.  11.1 %', 'handle index.js:10'],
    ]);
  });

  it(`prints at most the top ${TOP}`, () => {
    const nodes = Array.from({ length: TOP + 5 }, (_, i) => ({ id: i + 1, callFrame: frame(`f${i}`, 'a.js', i, 0) }));
    const rows = profileRows('x', { load, profile: { nodes, samples: nodes.map((n) => n.id) } });
    expect(rows).toHaveLength(TOP + 1);
  });
});
