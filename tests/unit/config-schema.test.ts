import { describe, expect, it } from 'vitest';
import { DEMO_CONFIG } from '../../worker/config/demo.ts';
import { localize } from '../../worker/config/localize.ts';
import { parseConfig, validateConfig } from '../../worker/config/validate.ts';

/** A minimal valid document, changed per test. */
function doc(): Record<string, unknown> {
  return {
    revision: 'r1',
    appData: [{ plat: 1, logo_url: '/logo.png', name: 'A', version: '1.0', size: '1 MB', updated_at: '2026-01-02' }],
    commonConfig: { tagline: 'T', description: 'D' },
  };
}

function paths(value: unknown): string[] {
  const result = validateConfig(value);
  return result.ok ? [] : result.problems.map((p) => p.path);
}

describe('the configuration schema', () => {
  it('accepts the bundled demo config, whose iOS item is App Store id 6740858208', () => {
    expect(DEMO_CONFIG.appData.find((a) => a.plat === 2)?.app_store_id).toBe('6740858208');
  });

  it('fills in defaults for optional parts', () => {
    const result = validateConfig(doc());
    expect(result.ok && result.config.domains).toEqual([]);
    expect(result.ok && result.config.commonConfig.probe_path).toBe('/favicon.ico');
    expect(result.ok && result.config.commonConfig.features).toEqual([]);
  });

  it('names the JSON path of a wrong plat', () => {
    const value = doc();
    (value.appData as Record<string, unknown>[])[0] = { ...(value.appData as object[])[0], plat: 4 };
    expect(paths(value)).toEqual(['$.appData[0].plat']);
  });

  it('names the path of a missing required field', () => {
    const value = doc();
    delete (value.commonConfig as Record<string, unknown>).tagline;
    expect(paths(value)).toEqual(['$.commonConfig.tagline']);
  });

  it('rejects a download domain that is not an https origin, at its index', () => {
    expect(paths({ ...doc(), domains: ['https://ok.example', 'http://plain.example'] })).toContain('$.domains[1]');
    expect(paths({ ...doc(), domains: ['https://ok.example/apk'] })).toEqual(['$.domains[0]']);
  });

  it('normalises a trailing slash on a domain', () => {
    const result = validateConfig({ ...doc(), domains: ['https://dl.example/'] });
    expect(result.ok && result.config.domains).toEqual(['https://dl.example']);
  });

  it('rejects an APK path that carries a domain', () => {
    const value = doc();
    (value.appData as Record<string, unknown>[])[0] = {
      ...(value.appData as object[])[0],
      download_url: 'https://evil.example/x.apk',
    };
    expect(paths(value)).toEqual(['$.appData[0].download_url']);
  });

  it('quotes a path segment that is not an identifier', () => {
    const value = doc();
    (value.commonConfig as Record<string, unknown>).features = [{ en: 'ok', 'zh-CN': 42 }];
    expect(paths(value)[0]).toMatch(/^\$\.commonConfig\.features\[0\]/);
  });

  it('refuses a misspelt key, naming it and the closest known one', () => {
    const value = doc();
    (value.appData as Record<string, unknown>[])[0] = { ...(value.appData as object[])[0], app_store_idd: '123456' };
    const result = validateConfig(value);
    expect(!result.ok && result.problems).toEqual([
      { path: '$.appData[0].app_store_idd', message: 'unknown key; did you mean app_store_id?' },
    ]);
  });

  it('refuses unknown keys at every level, and lists the known keys when none is near', () => {
    const value: Record<string, unknown> = { ...doc(), funnel: { timezone: 'UTC' }, colour_scheme: 'dark' };
    (value.commonConfig as Record<string, unknown>).tagline = { en: 'T', 'zh-cn': 'T' };
    const result = validateConfig(value);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toContainEqual({ path: '$.funnel.timezone', message: 'unknown key; did you mean time_zone?' });
    expect(problems).toContainEqual({
      path: '$.colour_scheme',
      message: expect.stringMatching(/^unknown key; known keys are revision, appData, /),
    });
    expect(problems.map((p) => p.path)).toContain('$.commonConfig.tagline');
  });

  it('reports text that is not JSON as one problem at $', () => {
    const result = parseConfig('{"revision": ');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toEqual([{ path: '$', message: expect.stringMatching(/^not JSON/) }]);
  });
});

describe('config texts per language', () => {
  it('picks the visitor language, then English, then Chinese', () => {
    expect(localize({ en: 'Hi', 'zh-CN': '你好' }, 'zh-CN')).toBe('你好');
    expect(localize({ en: 'Hi' }, 'zh-CN')).toBe('Hi');
    expect(localize({ 'zh-CN': '你好' }, 'en')).toBe('你好');
    expect(localize('Same', 'en')).toBe('Same');
  });
});
