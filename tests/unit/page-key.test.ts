import { describe, expect, it } from 'vitest';
import type { ClientStore } from '../../shared/handoff.ts';
import { pageKey } from '../../worker/render/page-cache.ts';

// Only the key's derivation is under test: any JSON-able seed will do.
const seed = (language: string, inviter = 'Ann') =>
  ({ language, campaign: { signed: {}, plain: { inviter } } }) as unknown as ClientStore;
const url = (path: string) => new URL(`https://lander.test${path}`);

describe('the page key', () => {
  it('is the same for the same URL and an equal seed', () => {
    expect(pageKey(url('/?a=1'), seed('en'))).toBe(pageKey(url('/?a=1'), seed('en')));
  });

  it('changes with anything in the seed', () => {
    expect(pageKey(url('/'), seed('en', 'Bo'))).not.toBe(pageKey(url('/'), seed('en', 'Ann')));
  });

  it('changes with the path and with the query', () => {
    const keys = [url('/'), url('/landing'), url('/?a=1')].map((u) => pageKey(u, seed('en')));
    expect(new Set(keys).size).toBe(3);
  });
});
