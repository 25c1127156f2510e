import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadOnce } from '../../client/browser/chunk-reload.ts';

const LANDING = 'https://lander.test/landing';
let assigned: string[];
let storage: Map<string, string>;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  assigned = [];
  storage = new Map();
  vi.stubGlobal('location', { href: 'https://lander.test/', assign: (url: string) => assigned.push(url) });
  vi.stubGlobal('sessionStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the chunk reload guard', () => {
  it('reloads a path, then refuses the same path within 10 s', () => {
    expect(reloadOnce('https://lander.test/landing?x=1')).toBe(true);
    expect(assigned).toEqual(['https://lander.test/landing?x=1']);
    vi.advanceTimersByTime(9_999);
    expect(reloadOnce('https://lander.test/landing?x=1')).toBe(false);
    expect(assigned).toHaveLength(1);
  });

  it('reloads the same path again once 10 s have passed', () => {
    reloadOnce(LANDING);
    vi.advanceTimersByTime(10_000);
    expect(reloadOnce(LANDING)).toBe(true);
    expect(assigned).toHaveLength(2);
  });

  it('does not let one path block another', () => {
    reloadOnce(LANDING);
    expect(reloadOnce('https://lander.test/test')).toBe(true);
  });

  it('treats a malformed record as no record', () => {
    storage.set('lander:chunk-reload', 'garbage');
    expect(reloadOnce(LANDING)).toBe(true);
  });

  it('does not reload at all where sessionStorage is unavailable (no guard, no loop)', () => {
    vi.stubGlobal('sessionStorage', {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    });
    expect(reloadOnce(LANDING)).toBe(false);
    expect(assigned).toEqual([]);
  });
});
