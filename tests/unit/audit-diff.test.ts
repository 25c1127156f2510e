/**
 * The console's view of an audit entry's change (client/app/admin/audit/audit-diff.ts,
 * docs/operators.md#audit-log): the fields that differ by dotted path, before and after.
 */
import { describe, expect, it } from 'vitest';
import { fieldChanges, shown } from '../../client/app/admin/audit/audit-diff.ts';

describe("an audit entry's change", () => {
  it('lists every field of a created thing as after only, and of a deleted one as before only', () => {
    expect(fieldChanges(null, { slug: 'a', data: { channel: 'x' } })).toEqual([
      { path: 'data.channel', before: undefined, after: 'x' },
      { path: 'slug', before: undefined, after: 'a' },
    ]);
    expect(fieldChanges({ slug: 'a' }, null)).toEqual([{ path: 'slug', before: 'a', after: undefined }]);
  });

  it('lists only the fields that changed, arrays compared whole', () => {
    const before = { slug: 'a', expiresAt: null, events: ['open'], data: { link: 'https://a.example/' } };
    const after = {
      slug: 'a',
      expiresAt: 1_800_000_000_000,
      events: ['open', 'install'],
      data: { link: 'https://a.example/' },
    };
    expect(fieldChanges(before, after).map((change) => change.path)).toEqual(['events', 'expiresAt']);
    expect(fieldChanges(before, before)).toEqual([]);
  });

  it('shows a time field through the zone, text as it is, anything else as JSON', () => {
    const time = (ms: number) => `t${ms}`;
    expect(shown('expiresAt', 5, time)).toBe('t5');
    expect(shown('count', 5, time)).toBe('5');
    expect(shown('url', 'https://a.example/', time)).toBe('https://a.example/');
    expect(shown('events', ['open'], time)).toBe('["open"]');
    expect(shown('x', undefined, time)).toBe('');
  });
});
