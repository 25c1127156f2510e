import { describe, expect, it } from 'vitest';
import { QUERY_LIMITS } from '../../worker/campaign/query-data.ts';
import { traceQuery } from '../../worker/identity/trace-query.ts';

const query = (search: string) => traceQuery(new URLSearchParams(search));

describe('query data on a trace call', () => {
  it('keeps plain parameters as they are, and leaves the token to be read apart', () => {
    expect(query('channel=spring&inviter=Ann%20Lee&d=abc_-123')).toEqual({
      data: { channel: 'spring', inviter: 'Ann Lee' },
      dropped: 0,
    });
  });

  it('keeps only channel and inviter, and counts tracking and unknown parameters as dropped', () => {
    const result = query('utm_source=mail&fbclid=IwAR&gclid=Cj0&ttclid=t&campaign=42&k0=v&channel=spring');
    expect(result).toEqual({ data: { channel: 'spring' }, dropped: 6 });
  });

  it('drops odd names, long names, long values and control characters', () => {
    const result = query(
      [
        `${encodeURIComponent('<script>')}=1`,
        `${'k'.repeat(33)}=1`,
        `channel=${'v'.repeat(QUERY_LIMITS.maxValueLength + 1)}`,
        'inviter=a%00b',
        'inviter=a%0Ab',
        'inviter=ok',
      ].join('&'),
    );
    expect(result).toEqual({ data: { inviter: 'ok' }, dropped: 5 });
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
