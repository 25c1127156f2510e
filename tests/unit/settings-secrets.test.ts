import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Env = { LANDER_ENV?: string; DECODE_KEY?: string };
let decodeKey: (env: Env) => string | undefined;
let DEV_DECODE_KEY: string;

beforeEach(async () => {
  // The "logged once" memory is per isolate: each test starts with a fresh module.
  vi.resetModules();
  const settings = await import('../../worker/settings.ts');
  decodeKey = (env) => settings.secretOf(env, 'DECODE_KEY');
  DEV_DECODE_KEY = settings.DEV_DECODE_KEY;
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the decode key', () => {
  it('is the secret when one is set', () => {
    expect(decodeKey({ LANDER_ENV: 'production', DECODE_KEY: 'ProductionKey123' })).toBe('ProductionKey123');
    expect(decodeKey({ LANDER_ENV: 'development', DECODE_KEY: 'AnotherKey123456' })).toBe('AnotherKey123456');
  });

  it('falls back to the development key in development only', () => {
    expect(decodeKey({ LANDER_ENV: 'development' })).toBe(DEV_DECODE_KEY);
  });

  it('is off in production without a secret, logged once per isolate', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(decodeKey({ LANDER_ENV: 'production' })).toBeUndefined();
    expect(decodeKey({ LANDER_ENV: 'production' })).toBeUndefined();
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]?.[0]).toContain('DECODE_KEY is not set');
  });

  it('is off in production when the secret is the development key', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(decodeKey({ LANDER_ENV: 'production', DECODE_KEY: DEV_DECODE_KEY })).toBeUndefined();
    expect(decodeKey({ LANDER_ENV: 'production', DECODE_KEY: DEV_DECODE_KEY })).toBeUndefined();
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]?.[0]).toContain('development key');
  });
});
