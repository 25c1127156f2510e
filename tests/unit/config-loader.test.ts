import { describe, expect, it, vi } from 'vitest';
import { CONFIG_KEY } from '../../shared/config/schema.ts';
import { DEMO_CONFIG } from '../../worker/config/demo.ts';
import { type ConfigStore, createConfigLoader } from '../../worker/config/load-config.ts';
import { oneKeyStore } from '../fixtures/kv-get.ts';

const VALID = JSON.stringify({
  revision: 'r7',
  appData: [{ plat: 1, logo_url: '/logo.png', name: 'Seven', version: '7.0', size: '7 MB', updated_at: '2026-07-07' }],
  commonConfig: { tagline: 'T', description: 'D' },
});

const store = (value: Parameters<typeof oneKeyStore>[1]) => oneKeyStore(CONFIG_KEY, value);

describe('the config loader', () => {
  it('returns the document from KV when it is valid', async () => {
    const loaded = await createConfigLoader({ log: () => {} })(store(VALID), 0);
    expect(loaded.fallback).toBeNull();
    expect(loaded.config.revision).toBe('r7');
  });

  it.each([
    ['missing', null, 'missing'],
    ['not JSON', '{oops', 'not-json'],
    ['schema-invalid', JSON.stringify({ revision: 'x', appData: [] }), 'invalid'],
  ] as const)('falls back to the demo config when the document is %s, and logs why', async (_, value, reason) => {
    const log = vi.fn();
    const loaded = await createConfigLoader({ log })(store(value), 0);
    expect(loaded).toEqual({ config: DEMO_CONFIG, fallback: reason });
    expect(log).toHaveBeenCalledWith(expect.stringContaining(`Config fallback (${reason})`));
  });

  it('names the invalid fields in the log line', async () => {
    const log = vi.fn();
    await createConfigLoader({ log })(store(JSON.stringify({ revision: 'x', appData: [] })), 0);
    expect(log.mock.calls[0]?.[0]).toContain('$.appData');
  });

  it('refuses a document with an unknown key, naming the key and the one it resembles', async () => {
    const log = vi.fn();
    const typo = { ...JSON.parse(VALID), revison: 'r8' };
    const loaded = await createConfigLoader({ log })(store(JSON.stringify(typo)), 0);
    expect(loaded.fallback).toBe('invalid');
    expect(log.mock.calls[0]?.[0]).toContain('$.revison: unknown key; did you mean revision?');
  });

  it('falls back when KV throws', async () => {
    const log = vi.fn();
    const kv = { get: (() => Promise.reject(new Error('KV GET failed: 500'))) as ConfigStore['get'] };
    const loaded = await createConfigLoader({ log })(kv, 0);
    expect(loaded.fallback).toBe('kv-error');
    expect(log.mock.calls[0]?.[0]).toContain('KV GET failed: 500');
  });

  it('falls back when KV does not answer in time, without waiting for it', async () => {
    const slow = store(() => new Promise((resolve) => setTimeout(() => resolve(VALID), 1000)));
    const started = Date.now();
    const loaded = await createConfigLoader({ timeoutMs: 50, log: () => {} })(slow, 0);
    expect(loaded.fallback).toBe('kv-timeout');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('keeps a parsed copy for the TTL, then reads KV again', async () => {
    let now = 1_000;
    const kv = store(VALID);
    const load = createConfigLoader({ now: () => now, log: () => {} });
    const first = await load(kv, 30_000);
    now += 29_000;
    expect(await load(kv, 30_000)).toBe(first);
    expect(kv.calls).toBe(1);
    now += 2_000;
    await load(kv, 30_000);
    expect(kv.calls).toBe(2);
  });

  it('reads KV on every call when the TTL is 0', async () => {
    const kv = store(VALID);
    const load = createConfigLoader({ log: () => {} });
    await load(kv, 0);
    await load(kv, 0);
    expect(kv.calls).toBe(2);
  });

  it('keeps a fallback only briefly, so a recovered store is used soon', async () => {
    let now = 0;
    let value: string | null = null;
    const kv = store(() => Promise.resolve(value));
    const load = createConfigLoader({ now: () => now, log: () => {} });
    expect((await load(kv, 60_000)).fallback).toBe('missing');
    value = VALID;
    now += 4_000;
    expect((await load(kv, 60_000)).fallback).toBe('missing');
    now += 2_000;
    expect((await load(kv, 60_000)).fallback).toBeNull();
  });

  it('shares one read among concurrent requests: 50 of them under a 550 ms KV all answer within 600 ms', async () => {
    const kv = store(() => new Promise((resolve) => setTimeout(() => resolve(VALID), 550)));
    const load = createConfigLoader({ log: () => {} });
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const loaded = await load(kv, 0);
        return { fallback: loaded.fallback, ms: performance.now() - started };
      }),
    );
    expect(kv.calls).toBe(1);
    // The read gives up at its 500 ms budget: every request gets the demo config, none waits longer.
    expect(answers.every((answer) => answer.fallback === 'kv-timeout')).toBe(true);
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(600);
  });

  it('reads again once the shared read is done, when nothing is cached', async () => {
    const kv = store(VALID);
    const load = createConfigLoader({ log: () => {} });
    await load(kv, 0);
    await load(kv, 0);
    expect(kv.calls).toBe(2);
  });

  it('gives the same object for the same document read again, so pages kept for it stay kept', async () => {
    const kv = store(VALID);
    const load = createConfigLoader({ log: () => {} });
    const first = await load(kv, 0);
    const second = await load(kv, 0);
    expect(kv.calls).toBe(2);
    expect(second).toBe(first);
  });

  it('gives a new object for a changed document', async () => {
    let text = VALID;
    const kv = store(() => Promise.resolve(text));
    const load = createConfigLoader({ log: () => {} });
    const first = await load(kv, 0);
    text = VALID.replace('r7', 'r8');
    const second = await load(kv, 0);
    expect(second).not.toBe(first);
    expect(second.config.revision).toBe('r8');
  });

  it('does not leave joiners waiting on a shared read that never settles', async () => {
    // The first request's read is cancelled with that request: its promise never settles.
    const kv = store(() => new Promise(() => {}));
    let clock = 0;
    const load = createConfigLoader({ log: () => {}, timeoutMs: 50, now: () => clock });
    void load(kv, 0);
    const started = performance.now();
    const joined = await load(kv, 0);
    expect(joined.fallback).toBe('kv-timeout');
    expect(performance.now() - started).toBeLessThan(500);
    // Past its budget the stuck read is not joined again: a new one starts.
    clock = 100;
    void load(kv, 0);
    expect(kv.calls).toBe(2);
  });
});
