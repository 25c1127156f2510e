import { describe, expect, it } from 'vitest';
import type { HandoffInputs } from '../../worker/render/handoff.ts';
import { pageId, pageKey } from '../../worker/render/page-cache.ts';

// Only the key's derivation is under test: stand-in objects will do.
const verdict = {} as HandoffInputs['verdict'];
const config = {} as HandoffInputs['config'];
const settings = {} as HandoffInputs['settings'];
const apkParents = {} as HandoffInputs['apkParents'];
const page: HandoffInputs['page'] = { page: 'download' };
const inputs = (change: Partial<HandoffInputs> = {}): HandoffInputs => ({
  url: new URL('https://lander.test/?a=1'),
  base: '',
  page,
  language: 'en',
  verdict,
  device: null,
  config,
  fallback: null,
  settings,
  apkParents,
  linkToken: null,
  variant: null,
  preview: null,
  ...change,
});

describe('the page key', () => {
  it('is the same for equal inputs: the same URL and the same objects', () => {
    expect(pageKey(inputs())).toBe(pageKey(inputs()));
  });

  it('changes with the path and with the query', () => {
    const urls = ['/', '/landing', '/?a=2'].map((path) => new URL(`https://lander.test${path}`));
    const keys = [pageKey(inputs()), ...urls.map((url) => pageKey(inputs({ url })))];
    expect(new Set(keys).size).toBe(4);
  });

  it('changes with every other input', () => {
    const others: Partial<HandoffInputs>[] = [
      { page: { page: 'landing' } },
      { base: '/@notes' },
      { language: 'zh-CN' },
      { verdict: { ...verdict } },
      { device: {} as NonNullable<HandoffInputs['device']> },
      { config: { ...config } },
      { fallback: 'kv-timeout' },
      { settings: { ...settings } },
      { apkParents: { ...apkParents } },
      { linkToken: 'token-of-a-short-link' },
      { variant: '{"name":"b","headline":"Free this week"}' },
    ];
    const keys = others.map((change) => pageKey(inputs(change)));
    expect(new Set([pageKey(inputs()), ...keys]).size).toBe(others.length + 1);
  });

  it('has a part for every input, so a new input cannot be left out', () => {
    // One line per input, an empty one included (the default app's base is '').
    expect(pageKey(inputs()).split('\n').slice(0, -1)).toHaveLength(Object.keys(inputs()).length);
  });
});

describe('the page id', () => {
  it('names a key by a short base-36 id, the same for the same key', () => {
    const key = pageKey(inputs());
    expect(pageId(key)).toMatch(/^[0-9a-z]{1,7}$/);
    expect(pageId(key)).toBe(pageId(pageKey(inputs())));
  });

  it('names different keys apart', () => {
    const urls = ['/', '/landing', '/?channel=a', '/?channel=b'].map((path) => new URL(`https://lander.test${path}`));
    const ids = urls.map((url) => pageId(pageKey(inputs({ url }))));
    expect(new Set(ids).size).toBe(urls.length);
  });
});
