/**
 * The bench's location cache service (tools/bench/workers/cache.ts), the new isolate's tally
 * (tools/bench/new-isolate.ts) and the start-up profile's summary (tools/bench/startup.ts).
 */
import { describe, expect, it } from 'vitest';
import { tallyTimings } from '../bench/new-isolate.ts';
import { type StartupProfile, sourceLabel, summarizeStartup } from '../bench/startup.ts';
import { type Kept, LocationStore, lifetime, parseMessage } from '../bench/workers/cache.ts';

describe('the location cache service', () => {
  it('reads the response workerd sends it as an HTTP/1.1 message', () => {
    const message = 'HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nX-A: b: c\r\n\r\nbody\r\n\r\nmore';
    const { status, headers, body } = parseMessage(new TextEncoder().encode(message));
    expect(status).toBe(200);
    expect(headers.get('x-a')).toBe('b: c');
    expect(new TextDecoder().decode(body)).toBe('body\r\n\r\nmore');
    expect(() => parseMessage(new TextEncoder().encode('HTTP/1.1 200 OK\r\n'))).toThrow(/blank line/);
  });

  it('holds at most its bound, dropping the least recently used entries first', () => {
    const entry = (bytes: number, expires = Number.POSITIVE_INFINITY): Kept => ({
      status: 200,
      headers: [],
      body: new Uint8Array(bytes),
      expires,
    });
    // Keys of one character count 2 bytes: three entries of 98 + 2 fit in 300, a fourth does not.
    const store = new LocationStore(300);
    for (const key of ['a', 'b', 'c']) store.set(key, entry(98));
    expect(store.bytes).toBe(300);
    expect(store.get('a')).toBeDefined(); // now the most recently used
    store.set('d', entry(98));
    expect(store.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => store.get(key) !== undefined)).toEqual([true, true, true]);
    expect(store.bytes).toBe(300);
    // An entry past its lifetime is gone when asked for, and frees its bytes.
    store.set('e', entry(10, 1_000));
    expect(store.get('e', 2_000)).toBeUndefined();
    expect(store.bytes).toBeLessThanOrEqual(300);
    expect(store.delete('e')).toBe(false);
  });

  it('keeps a response for its shared lifetime, and nothing private, unstorable or with a cookie', () => {
    expect(lifetime(new Headers({ 'cache-control': 'public, max-age=3600' }))).toBe(3600);
    expect(lifetime(new Headers({ 'cache-control': 'max-age=60, s-maxage=600' }))).toBe(600);
    expect(lifetime(new Headers({ 'cache-control': 'private, max-age=60' }))).toBe(0);
    expect(lifetime(new Headers({ 'cache-control': 'no-store' }))).toBe(0);
    expect(lifetime(new Headers({ 'cache-control': 'max-age=60', 'set-cookie': 'a=b' }))).toBe(0);
    expect(lifetime(new Headers())).toBe(0);
  });
});

describe('a new isolate’s answers', () => {
  it('are counted by how each page was answered, and the kinds of page by their ids', () => {
    expect(
      tallyTimings([
        'kept;desc=shared, page;desc=a1',
        'kept;desc=hit, page;desc=a1',
        'kept;desc=miss, page;desc=b2',
        'kept;desc=hitch',
        undefined,
        '',
      ]),
    ).toEqual({ shared: 1, hit: 1, miss: 1, other: 3, kinds: 2 });
  });
});

describe('a start-up profile', () => {
  const frame = (functionName: string, url = '', lineNumber = -1) => ({
    functionName,
    url,
    lineNumber,
    columnNumber: 0,
  });
  const profile: StartupProfile = {
    nodes: [
      { id: 1, callFrame: frame('(idle)') },
      { id: 2, callFrame: frame('(program)') },
      { id: 3, callFrame: frame('', 'index.js', 10) },
      { id: 4, callFrame: frame('(garbage collector)') },
      { id: 5, callFrame: frame('', 'index.js', 20) },
    ],
    samples: [1, 2, 3, 4, 5],
    startTime: 0,
    // Each sample lasts until the next: idle 1 ms, program 2, line 10 3, GC 4, line 20 until the end (5).
    timeDeltas: [0, 1000, 2000, 3000, 4000],
    endTime: 15_000,
  };
  const locate = ({ lineNumber }: { lineNumber: number }) =>
    lineNumber === 10
      ? { file: '../node_modules/hono/dist/hono.js', line: 1 }
      : { file: '../worker/render/assets.ts', line: 1 };

  it('sums the active time, garbage collection and each source, idle left out', () => {
    const summary = summarizeStartup(profile, locate);
    expect(summary.activeMs).toBe(14);
    expect(summary.gcMs).toBe(4);
    expect(summary.sources).toEqual([
      { label: 'worker/render/assets.ts', ms: 5 },
      { label: '(garbage collector)', ms: 4 },
      { label: 'hono', ms: 3 },
      { label: '(program)', ms: 2 },
    ]);
  });

  it('names a bundled source by its package, else by its path in the repository', () => {
    expect(sourceLabel('../node_modules/@scope/pkg/dist/a.js')).toBe('@scope/pkg');
    expect(sourceLabel('../../node_modules/.pnpm/x/node_modules/react-dom/cjs/a.js')).toBe('react-dom');
    expect(sourceLabel('../shared/device/verdict.ts')).toBe('shared/device/verdict.ts');
  });
});
