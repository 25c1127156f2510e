/**
 * `npm run link -- --rules <id>` (docs/smart-links.md#rule-sets): the token names the app's rule set
 * in its signed `rules` field, read back by the worker's own reader; an id that is none is refused
 * with the reason and exit code 2, before any token is printed.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readCampaign } from '../../worker/campaign/query-data.ts';
import { DEV_DECODE_KEY } from '../../worker/settings.ts';

const BASE = 'https://get.lander.test';

function link(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/link.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, DECODE_KEY: '' },
  });
}

describe('npm run link -- --rules', () => {
  it('signs the rule set id into the token', () => {
    const result = link('--channel', 'spring', '--rules', 'spring-routing', '--base', BASE);
    expect(result.status, result.stderr).toBe(0);
    const url = new URL(result.stdout.trim());
    expect(url.searchParams.has('rules')).toBe(false);
    expect(readCampaign(url.searchParams, DEV_DECODE_KEY).signed).toEqual({
      channel: 'spring',
      rules: 'spring-routing',
    });
  });

  it.each(['Spring', 'a b', 'x'.repeat(33), ''])('refuses the id %j with exit code 2', (id) => {
    const result = link('--channel', 'spring', '--rules', id, '--base', BASE);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--rules');
  });
});
