import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { boundedCache, CACHE_SHARES, ISOLATE_CACHE_BUDGET } from '../../worker/lib/bounded-cache.ts';

// Keys of one character cost 2 bytes; values are sized by their length.
const cache = (maxBytes: number) => boundedCache<string>({ maxBytes, sizeOf: (v) => v.length });

describe('the bounded cache', () => {
  it('returns what was set', () => {
    const c = cache(100);
    c.set('a', 'x');
    expect(c.get('a')).toBe('x');
    expect(c.get('b')).toBeUndefined();
  });

  it('evicts the least recently used entry once its bytes exceed the bound', () => {
    const c = cache(18);
    c.set('a', 'xxxx');
    c.set('b', 'yyyy');
    c.set('c', 'zzzz');
    c.get('a');
    c.set('d', 'wwww');
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe('xxxx');
    expect(c.get('d')).toBe('wwww');
    expect(c.bytes).toBeLessThanOrEqual(18);
  });

  it('counts the key into the bytes', () => {
    const c = cache(100);
    c.set('abc', 'xxxx');
    expect(c.bytes).toBe(6 + 4);
  });

  it('refuses a value larger than the whole bound and keeps the others', () => {
    const c = cache(10);
    c.set('a', 'zzzz');
    c.set('h', 'x'.repeat(11));
    expect(c.get('h')).toBeUndefined();
    expect(c.get('a')).toBe('zzzz');
  });

  it('replaces a key without counting it twice', () => {
    const c = cache(12);
    c.set('a', 'xxxx');
    c.set('a', 'yyyy');
    c.set('b', 'zzzz');
    expect(c.get('a')).toBe('yyyy');
    expect(c.get('b')).toBe('zzzz');
  });

  it("keeps the caches' shares within the isolate's budget", () => {
    const shares = Object.values(CACHE_SHARES).reduce((sum, share) => sum + share, 0);
    expect(shares).toBeLessThanOrEqual(ISOLATE_CACHE_BUDGET);
  });

  it('keeps an entry under the key it was stored with, not the one it was last asked with', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const c = boundedCache<number>({ maxBytes: 1_000_000, sizeOf: () => 8 });
    const keys = Array.from({ length: 40 }, (_, i) => `a-stored-key-${String(i).padStart(4, '0')}`);
    for (const [i, key] of keys.entries()) c.set(key, i);
    const before = heap();
    // Asked in turn (so each is moved to the recent end) with keys cut from 1 MB strings, as a
    // request's header is cut: V8 keeps a cut as a view of the whole string.
    for (const [i, key] of keys.entries()) {
      const asked = `${key}${String.fromCharCode(97 + (i % 26)).repeat(1_000_000)}`.slice(0, key.length);
      expect(c.get(asked)).toBe(i);
    }
    // Kept under the cuts, the 40 strings of 1 MB would stay alive.
    expect(heap() - before).toBeLessThan(10_000_000);
  });
});
