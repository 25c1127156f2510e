/**
 * The configuration's "who makes it, and what it is" fields (docs/config.md#about-the-app): each is
 * validated with its path, and `config:push` refuses a bad value — and a mainland document without
 * its disclosures — writing nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOL_ENV } from '../../scripts/lib/run.ts';
import { mainlandGaps } from '../../worker/config/mainland-ready.ts';
import { type ConfigProblem, validateConfig } from '../../worker/config/validate.ts';
import { ABOUT, aboutConfig, CHINA, demoPlus } from '../fixtures/about-config.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-config-about-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function problems(value: unknown): string[] {
  const result = validateConfig(value);
  return result.ok ? [] : result.problems.map((p: ConfigProblem) => `${p.path}: ${p.message}`);
}

const shot = { url: '/logo.png', width: 390, height: 844, alt: 'A screen' };

describe('the about and china fields', () => {
  it('accepts every field in both languages', () => {
    expect(problems(aboutConfig({ mainland: true }))).toEqual([]);
  });

  it('leaves a document without them as it was: no about, no china', () => {
    const result = validateConfig(demoPlus({}));
    expect(result.ok && [result.config.about, result.config.china]).toEqual([undefined, undefined]);
  });

  it('refuses a sixth screenshot', () => {
    expect(problems(demoPlus({ about: { screenshots: Array(6).fill(shot) } }))).toEqual([
      '$.about.screenshots: at most 5',
    ]);
  });

  it('refuses a privacy policy that is not https', () => {
    expect(problems(demoPlus({ about: { privacy_url: 'http://pebble.example/privacy' } }))).toEqual([
      '$.about.privacy_url: must be https',
    ]);
  });

  it('refuses a screenshot without its pixel size, at its index', () => {
    const { width: _, ...unsized } = shot;
    expect(problems(demoPlus({ about: { screenshots: [shot, unsized] } }))).toEqual([
      '$.about.screenshots[1].width: missing',
    ]);
  });

  it('refuses a permission without its purpose and a date that is not one', () => {
    const about = { version_date: '18.11.2026', permissions: [{ name: 'Camera' }] };
    expect(problems(demoPlus({ about }))).toEqual([
      '$.about.version_date: must be a date YYYY-MM-DD',
      '$.about.permissions[0].purpose: missing',
    ]);
  });

  it('refuses a filing number that is not one', () => {
    expect(problems(demoPlus({ china: { icp_filing: 'ICP 123' } }))).toEqual([
      '$.china.icp_filing: must be a filing number such as 京ICP备12345678号-1',
    ]);
  });
});

describe('what mainland China needs disclosed', () => {
  const valid = (value: unknown) => {
    const result = validateConfig(value);
    if (!result.ok) throw new Error('invalid test document');
    return result.config;
  };

  it('needs nothing when the page does not serve mainland visitors', () => {
    expect(mainlandGaps(valid(demoPlus({ china: CHINA })))).toEqual([]);
  });

  it('names each missing disclosure', () => {
    const gaps = mainlandGaps(valid(demoPlus({ china: { mainland: true }, about: { size: '1 MB' } })));
    expect(gaps.map((g) => g.path)).toEqual(['$.about.developer', '$.about.privacy_url', '$.about.permissions']);
  });

  it('takes the feature lines as the app’s functions when there is no description', () => {
    const { description: _, ...about } = ABOUT;
    const config = valid(demoPlus({ china: { mainland: true }, about }));
    expect(config.commonConfig.features.length).toBeGreaterThan(0);
    expect(mainlandGaps(config)).toEqual([]);
  });
});

describe('config:push', () => {
  const push = (document: unknown) => {
    const file = join(dir, `doc-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(document));
    const store = mkdtempSync(join(dir, 'kv-'));
    const result = spawnSync(process.execPath, ['scripts/config-push.ts', file, '--local', '--persist-to', store], {
      encoding: 'utf8',
      env: TOOL_ENV,
    });
    return { ...result, written: readdirSync(store) };
  };

  it('refuses a sixth screenshot and an http privacy policy, with their paths, writing nothing', () => {
    const about = { screenshots: Array(6).fill(shot), privacy_url: 'http://pebble.example/privacy' };
    const result = push(demoPlus({ about }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('$.about.screenshots: at most 5');
    expect(result.stderr).toContain('$.about.privacy_url: must be https');
    expect(result.written).toEqual([]);
  }, 60_000);

  it('refuses a mainland document without its disclosures, naming each, writing nothing', () => {
    const result = push(demoPlus({ china: { mainland: true } }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('serves mainland China without its disclosures; nothing was written');
    expect(result.stderr).toContain('$.about.developer: missing: china.mainland needs the developer or company name');
    expect(result.stderr).toContain('$.about.permissions: missing');
    expect(result.written).toEqual([]);
  }, 60_000);

  it('writes a mainland document with every disclosure', () => {
    const result = push(aboutConfig({ mainland: true }));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 60_000);
});
