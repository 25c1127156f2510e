/** The console's drill-down address (docs/operators.md#drill-down): the query string holds the view. */
import { describe, expect, it } from 'vitest';
import { drillOf, drillSearch, filterOf, rangeOf } from '../../client/app/admin/shared/drill-down.ts';

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

  it('names no range when the address holds no dates', () => {
    expect(rangeOf(new URLSearchParams('channel=spring'))).toBeNull();
  });

  it('refuses, with the stats API’s reason, dates the API would refuse', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    const refusal = (search: string) => rangeOf(new URLSearchParams(search), now);
    expect(refusal('from=2026-11-07&to=2026-11-01')).toEqual({ refused: 'from: must not be after to' });
    expect(refusal('from=yesterday&to=2026-11-01')).toEqual({ refused: 'from: must be a date, YYYY-MM-DD' });
    expect(refusal('from=2026-11-01')).toEqual({ refused: 'to: must be a date, YYYY-MM-DD' });
    expect(refusal('from=9999-12-31&to=9999-12-31')).toEqual({ refused: 'from: must not be after 2026-11-27' });
    expect(refusal('from=1999-01-01&to=1999-01-07')).toEqual({ refused: 'from: must not be before 2000-01-01' });
    expect(refusal('from=2024-01-01&to=2026-01-01')).toEqual({
      refused: 'from: at most 366 days before to, both included',
    });
    expect(refusal('from=2026-11-20&to=2026-11-27')).toEqual({ from: '2026-11-20', to: '2026-11-27' });
  });

  it('cuts a key to the stats API’s 128 characters', () => {
    expect(drillOf(new URLSearchParams({ inviter: 'x'.repeat(300) }))?.key).toHaveLength(128);
  });
});
