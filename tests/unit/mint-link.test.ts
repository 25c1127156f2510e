import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mintLink } from '../../scripts/lib/mint-link.ts';
import { readCampaign, readToken } from '../../worker/campaign/query-data.ts';
import { encryptToken } from '../../worker/campaign/token.ts';

const KEY = 'LanderDevKey2026';
const BASE = 'https://get.lander.test';

function link(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/link.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, DECODE_KEY: '' },
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('npm run link', () => {
  it('prints a link whose token the worker reads back', () => {
    const result = link('--channel', 'spring', '--inviter', 'Ann Lee', '--base', BASE);
    expect(result.status).toBe(0);
    expect(readCampaign(new URL(result.stdout.trim()).searchParams, KEY).signed).toEqual({
      channel: 'spring',
      inviter: 'Ann Lee',
    });
  });

  it('refuses an inviter longer than the worker accepts, with the reason and exit code 2', () => {
    const result = link('--inviter', 'x'.repeat(257), '--base', BASE);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('"inviter"');
  });

  it('refuses a parameter key the worker refuses', () => {
    const result = link('--param', 'a key=1', '--base', BASE);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('field name "a key"');
  });

  it('refuses a field named like an object prototype', () => {
    const result = link('--param', 'constructor=x', '--base', BASE);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('field name "constructor"');
  });

  it('refuses a plain parameter the worker would drop', () => {
    const result = link('--channel', 'spring', '--plain', 'd=forged', '--base', BASE);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('"d"');
  });

  it('refuses a tracking parameter as plain: the worker reads only channel and inviter', () => {
    const result = link('--inviter', 'Ann', '--plain', 'utm_source=mail', '--base', BASE);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'the worker ignores the plain parameter "utm_source": it reads channel and inviter',
    );
  });

  it('adds a plain channel the token does not name, and the worker reads it as plain', () => {
    const result = link('--inviter', 'Ann', '--plain', 'channel=x', '--base', BASE);
    expect(result.status).toBe(0);
    const campaign = readCampaign(new URL(result.stdout.trim()).searchParams, KEY);
    expect(campaign).toMatchObject({ signed: { inviter: 'Ann' }, plain: { channel: 'x' } });
  });

  it('refuses plain parameters the worker would not read as given: repeated, or named by the token', () => {
    const cases: [string, [string, string][]][] = [
      [
        'given twice',
        [
          ['inviter', '1'],
          ['inviter', '2'],
        ],
      ],
      ['the token names "channel"', [['channel', 'forged']]],
    ];
    for (const [reason, plain] of cases) {
      const result = mintLink({ payload: { channel: 'spring' }, plain, base: BASE, key: KEY });
      expect(result).toMatchObject({ ok: false, reason: expect.stringContaining(reason) });
    }
  });

  it('refuses an environment it does not know', () => {
    const result = link('--channel', 'spring', '--env', 'prod');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('"prod"');
  });

  it('refuses a payload whose token is longer than the worker reads', () => {
    const payload = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v'.repeat(200)]));
    const result = mintLink({ payload, plain: [], base: BASE, key: KEY });
    expect(result).toMatchObject({ ok: false, reason: expect.stringContaining('characters') });
  });
});

describe('every link the CLI accepts decodes on the worker to the same data', () => {
  const key = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_.-]{1,40}$/), fc.string({ maxLength: 40 }));
  const value = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 80 }));
  const payloads = fc.dictionary(key, value, { maxKeys: 24 });

  it('holds for random payloads, and what it refuses the worker refuses too', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fc.assert(
      fc.property(payloads, (payload) => {
        const result = mintLink({ payload, plain: [], base: BASE, key: KEY });
        if (result.ok) {
          const d = new URL(result.url).searchParams.get('d') ?? '';
          expect(readToken(d, KEY)).toEqual(payload);
        } else if (Object.keys(payload).length > 0) {
          expect(readToken(encryptToken(JSON.stringify(payload), KEY), KEY)).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });
});
