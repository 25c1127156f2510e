import { describe, expect, it } from 'vitest';
import { utcDay } from '../../shared/time-zone.ts';

describe('utcDay', () => {
  it('gives the UTC day of a time, on either side of midnight and back again', () => {
    const midnight = Date.UTC(2026, 10, 25);
    expect(utcDay(midnight - 1)).toBe('2026-11-24');
    expect(utcDay(midnight)).toBe('2026-11-25');
    expect(utcDay(midnight + 86_399_999)).toBe('2026-11-25');
    expect(utcDay(midnight + 86_400_000)).toBe('2026-11-26');
    // An older time after a newer one (a batch made of several requests) still gets its own day.
    expect(utcDay(midnight - 1)).toBe('2026-11-24');
    expect(utcDay(Date.UTC(2024, 1, 29, 12))).toBe('2024-02-29');
  });
});
