import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseUrl } from '../../scripts/lib/safe-url.ts';
import { QUERY_LIMITS, readCampaign, readQueryData } from '../../worker/campaign/query-data.ts';
import { encryptToken } from '../../worker/campaign/token.ts';

const KEY = 'LanderDevKey2026';
const url = (query: string) => new URL(`https://lander.test/landing${query}`);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('query data', () => {
  it('reads plain parameters', () => {
    expect(readQueryData(url('?channel=mail&inviter=Ann'), KEY)).toEqual({ channel: 'mail', inviter: 'Ann' });
  });

  it('merges the decrypted token over plain parameters', () => {
    const d = encryptToken(JSON.stringify({ channel: 'spring', inviter: 'Bo' }), KEY);
    expect(readQueryData(url(`?d=${d}&channel=forged&utm=x`), KEY)).toEqual({
      channel: 'spring',
      inviter: 'Bo',
      utm: 'x',
    });
  });

  it('ignores a token that does not decrypt, keeping the plain parameters', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(readQueryData(url('?d=garbage&channel=mail'), KEY)).toEqual({ channel: 'mail' });
  });

  it('refuses a decrypted payload that is not a flat object of short strings', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const payload of ['[1,2]', '{"a":{"b":1}}', `{"a":"${'x'.repeat(300)}"}`, 'not json']) {
      expect(readQueryData(url(`?d=${encryptToken(payload, KEY)}`), KEY)).toEqual({});
    }
    expect(error).toHaveBeenCalledWith('Decryption failed', expect.any(String));
  });

  it('bounds the number of parameters and their sizes', () => {
    const many = Array.from({ length: 50 }, (_, i) => `k${i}=v`).join('&');
    expect(Object.keys(readQueryData(url(`?${many}`), KEY))).toHaveLength(QUERY_LIMITS.maxParams);
    const long = readQueryData(url(`?a=${'x'.repeat(QUERY_LIMITS.maxValueLength + 1)}&${'k'.repeat(40)}=1&ok=1`), KEY);
    expect(long).toEqual({ ok: '1' });
  });

  it('reads no token without a key', () => {
    const d = encryptToken('{"channel":"spring"}', KEY);
    expect(readQueryData(url(`?d=${d}`), undefined)).toEqual({});
  });
});

describe('parseUrl', () => {
  it('logs an invalid URL and yields no value', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(parseUrl('http://[bad')).toBeUndefined();
    expect(error).toHaveBeenCalledWith('Invalid URL', '"http://[bad"', '');
  });

  it('parses a valid URL', () => {
    expect(parseUrl('/x', 'https://a.test')?.href).toBe('https://a.test/x');
  });
});

describe('the campaign token the landing button copies', () => {
  it('is the d value when it decrypts', () => {
    const d = encryptToken(JSON.stringify({ channel: 'spring' }), KEY);
    expect(readCampaign(url(`?d=${d}&utm=x`), KEY)).toEqual({ data: { channel: 'spring', utm: 'x' }, token: d });
  });

  it('is the query data as a query string when there is no d', () => {
    expect(readCampaign(url('?channel=mail&inviter=Ann%20Lee'), KEY).token).toBe('channel=mail&inviter=Ann+Lee');
  });

  it('is never a d value that did not decrypt', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(readCampaign(url('?d=garbage&channel=mail'), KEY).token).toBe('channel=mail');
    expect(readCampaign(url('?d=garbage'), KEY)).toEqual({ data: {} });
  });
});
