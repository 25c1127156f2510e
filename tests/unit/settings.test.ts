import { describe, expect, it } from 'vitest';
import { settingsOf } from '../../worker/settings.ts';

const env = (vars: Partial<Env> = {}): Env =>
  ({
    LANDER_ENV: 'development',
    DIAGNOSTICS: 'on',
    DOWNLOAD_ORIGIN: 'https://dl.test',
    TRACE_ORIGIN: '',
    TRACE_ALLOWED_ORIGINS: '',
    CONFIG_CACHE_SECONDS: '0',
    ...vars,
  }) as Env;

describe('the settings', () => {
  it('parses each variable into its type', () => {
    const settings = settingsOf(
      env({ LANDER_ENV: 'production', DIAGNOSTICS: 'off', CONFIG_CACHE_SECONDS: '30', DECODE_KEY: 'k' }),
    );
    expect(settings).toMatchObject({
      env: 'production',
      diagnostics: false,
      configCacheMs: 30_000,
      decodeKey: 'k',
      downloadOrigin: 'https://dl.test',
    });
  });

  it('reads anything but production as development, and an unreadable cache time as none', () => {
    expect(settingsOf(env({ LANDER_ENV: 'staging', CONFIG_CACHE_SECONDS: 'soon' }))).toMatchObject({
      env: 'development',
      configCacheMs: 0,
    });
  });

  it('parses an environment once', () => {
    const vars = env();
    expect(settingsOf(vars)).toBe(settingsOf(vars));
  });
});
