/** The console's drill-down address (docs/operators.md#drill-down): the query string holds the view. */
import { describe, expect, it } from 'vitest';
import { drillOf, drillSearch, filterOf, rangeOf } from '../../client/app/admin/drill-down.ts';

const range = { from: '2026-11-01', to: '2026-11-07' };

describe('the drill-down address', () => {
  it('round-trips a channel, an inviter and a link with the range', () => {
    for (const drill of [
      { by: 'channel', key: 'spring sale' },
      { by: 'inviter', key: 'Wen Li & co' },
      { by: 'link', key: 'spring-1' },
    ] as const) {
      const search = new URLSearchParams(drillSearch(drill, range));
      expect(drillOf(search)).toEqual(drill);
      expect(rangeOf(search)).toEqual(range);
      expect(filterOf(drill)).toEqual({ [drill.by]: drill.key });
    }
  });

  it('opens the "(none)" channel with an empty key', () => {
    expect(drillSearch({ by: 'channel', key: '' }, range)).toBe('?channel=&from=2026-11-01&to=2026-11-07');
    expect(drillOf(new URLSearchParams('?channel='))).toEqual({ by: 'channel', key: '' });
  });

  it('holds only the range when nothing is open', () => {
    expect(drillSearch(null, range)).toBe('?from=2026-11-01&to=2026-11-07');
    expect(drillOf(new URLSearchParams('?from=2026-11-01'))).toBeNull();
  });

  it('ignores a range that is not two days in order', () => {
    expect(rangeOf(new URLSearchParams('from=2026-11-07&to=2026-11-01'))).toBeNull();
    expect(rangeOf(new URLSearchParams('from=yesterday&to=2026-11-01'))).toBeNull();
    expect(rangeOf(new URLSearchParams('from=2026-11-01'))).toBeNull();
  });

  it('cuts a key to the stats API’s 128 characters', () => {
    expect(drillOf(new URLSearchParams({ inviter: 'x'.repeat(300) }))?.key).toHaveLength(128);
  });
});
