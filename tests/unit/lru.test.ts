import { describe, expect, it } from 'vitest';
import { createLru } from '../../worker/lib/lru.ts';

describe('createLru', () => {
  it('returns what was set', () => {
    const lru = createLru<number>({ maxEntries: 2 });
    lru.set('a', 1);
    expect(lru.get('a')).toBe(1);
    expect(lru.get('b')).toBeUndefined();
  });

  it('evicts the least recently used entry past maxEntries', () => {
    const lru = createLru<number>({ maxEntries: 2 });
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });

  it('evicts by total size and refuses a value larger than the whole budget', () => {
    const lru = createLru<string>({ maxEntries: 100, maxSize: 10, sizeOf: (_, v) => v.length });
    lru.set('a', 'xxxx');
    lru.set('b', 'yyyy');
    lru.set('c', 'zzzz');
    expect(lru.get('a')).toBeUndefined();
    expect(lru.get('b')).toBe('yyyy');
    lru.set('huge', 'x'.repeat(11));
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.get('c')).toBe('zzzz');
  });

  it('replaces a key without counting it twice', () => {
    const lru = createLru<string>({ maxEntries: 100, maxSize: 8, sizeOf: (_, v) => v.length });
    lru.set('a', 'xxxx');
    lru.set('a', 'yyyy');
    lru.set('b', 'zzzz');
    expect(lru.get('a')).toBe('yyyy');
    expect(lru.get('b')).toBe('zzzz');
  });
});
