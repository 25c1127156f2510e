import { describe, expect, it } from 'vitest';
import { QUERY_LIMITS } from '../../worker/campaign/query-data.ts';
import { traceQuery } from '../../worker/routes/trace-query.ts';

const query = (search: string) => traceQuery(new URLSearchParams(search));

describe('query data on a trace call', () => {
  it('keeps plain parameters as they are, and leaves the token to be read apart', () => {
    expect(query('channel=spring&inviter=Ann%20Lee&d=abc_-123')).toEqual({
      data: { channel: 'spring', inviter: 'Ann Lee' },
      dropped: 0,
    });
  });

  it('keeps at most 20 parameters (the campaign limit) and counts the rest', () => {
    const result = query(Array.from({ length: 30 }, (_, i) => `k${i}=v`).join('&'));
    expect(Object.keys(result.data)).toHaveLength(QUERY_LIMITS.maxParams);
    expect(result.dropped).toBe(30 - QUERY_LIMITS.maxParams);
  });

  it('drops odd names, long names, long values and control characters', () => {
    const result = query(
      [
        `${encodeURIComponent('<script>')}=1`,
        `${'k'.repeat(33)}=1`,
        `long=${'v'.repeat(257)}`,
        'ctl=a%00b',
        'nl=a%0Ab',
        'ok=1',
      ].join('&'),
    );
    expect(result).toEqual({ data: { ok: '1' }, dropped: 5 });
  });

  it('keeps the first of repeated names', () => {
    expect(query('channel=a&channel=b')).toEqual({ data: { channel: 'a' }, dropped: 1 });
  });

  it('drops names the campaign never takes, like an object prototype', () => {
    const { data, dropped } = query('__proto__=x&constructor=y&channel=spring');
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect({ data, dropped }).toEqual({ data: { channel: 'spring' }, dropped: 2 });
  });
});
