import { describe, expect, it, vi } from 'vitest';
import { NO_PARENTS, PARENTS_KEY } from '../../worker/apk/parents.ts';
import { createParentsLoader } from '../../worker/apk/parents-loader.ts';
import { oneKeyStore } from '../fixtures/kv-get.ts';

const FACTS = { file: 'app-1.0.apk', size: 4096, sha256: 'cd'.repeat(32), version: '1.0' };
const RECORD = JSON.stringify({ 'com.example.app': FACTS });

const store = (value: Parameters<typeof oneKeyStore>[1]) => oneKeyStore(PARENTS_KEY, value);

describe('the APK parents loader', () => {
  it('returns the record from KV', async () => {
    expect(await createParentsLoader()(store(RECORD), 0)).toEqual({ 'com.example.app': FACTS });
  });

  it('returns no parents when the record is missing', async () => {
    expect(await createParentsLoader()(store(null), 0)).toBe(NO_PARENTS);
  });

  it('returns no parents, and logs why, when the record is not valid', async () => {
    const log = vi.fn();
    expect(await createParentsLoader({ log })(store('{"a":{"file":"x"}}'), 0)).toBe(NO_PARENTS);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('not a valid record'));
  });

  it('returns no parents when KV does not answer in time', async () => {
    const slow = store(() => new Promise((resolve) => setTimeout(() => resolve(RECORD), 1000)));
    expect(await createParentsLoader({ timeoutMs: 20, log: () => {} })(slow, 0)).toBe(NO_PARENTS);
  });

  it('reads KV once within the cache time', async () => {
    let now = 0;
    const load = createParentsLoader({ now: () => now });
    const kv = store(RECORD);
    await load(kv, 30_000);
    now = 29_999;
    await load(kv, 30_000);
    expect(kv.calls).toBe(1);
    now = 30_000;
    await load(kv, 30_000);
    expect(kv.calls).toBe(2);
  });

  it('shares one read between concurrent requests', async () => {
    const kv = store(RECORD);
    const load = createParentsLoader();
    await Promise.all([load(kv, 0), load(kv, 0), load(kv, 0)]);
    expect(kv.calls).toBe(1);
  });

  it('returns the same object for the same record text', async () => {
    const load = createParentsLoader();
    expect(await load(store(RECORD), 0)).toBe(await load(store(RECORD), 0));
  });
});
