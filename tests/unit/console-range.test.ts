/** The console's range once the stats name the operator's time zone (client/app/admin/range.ts). */
import { describe, expect, it } from 'vitest';
import { zonedRange } from '../../client/app/admin/range.ts';

const NOW = Date.parse('2026-11-26T20:00:00Z');
const utcWeek = { from: '2026-11-20', to: '2026-11-26' };

describe('the range in the operator’s zone', () => {
  it('keeps the very range shown when the zone’s days are its days, so the figures are not loaded again', () => {
    const shown = { ...utcWeek };
    expect(zonedRange(shown, 'UTC', NOW)).toBe(shown);
    // Shanghai is already on the 27th at 20:00 UTC; Berlin is not.
    expect(zonedRange(shown, 'Europe/Berlin', NOW)).toBe(shown);
  });

  it('turns the default range into the zone’s last 7 days, and leaves a chosen range alone', () => {
    expect(zonedRange({ ...utcWeek }, 'Asia/Shanghai', NOW)).toEqual({ from: '2026-11-21', to: '2026-11-27' });
    const chosen = { from: '2026-11-01', to: '2026-11-10' };
    expect(zonedRange(chosen, 'Asia/Shanghai', NOW)).toBe(chosen);
  });
});
