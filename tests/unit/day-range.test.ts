/** The days a stats range may name (shared/day-range.ts, docs/operators.md#ranges). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayRefusal,
  daysIn,
  eachDay,
  FIRST_DAY,
  isDay,
  lastDay,
  MAX_RANGE_DAYS,
  rangeRefusal,
} from '../../shared/day-range.ts';

const NOW = Date.parse('2026-11-25T12:00:00Z');

/** Any day of the calendar from year 0 to 9999 (`fc.date` stays within what toISOString writes as 4 digits). */
const anyDay = fc
  .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

describe('the days a range may name', () => {
  it('end tomorrow in the zone furthest ahead, so every zone’s today fits', () => {
    expect(lastDay(NOW)).toBe('2026-11-27');
    // 23:30 UTC: Kiritimati (UTC+14) is already on the 27th; its tomorrow is the 28th.
    expect(lastDay(Date.parse('2026-11-26T23:30:00Z'))).toBe('2026-11-28');
  });

  it('are calendar days only', () => {
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-1-01')).toBe(false);
    expect(isDay('+010000-01-01')).toBe(false);
  });

  it('refuse a day outside the window, naming the field', () => {
    expect(dayRefusal('to', '9999-12-31', NOW)).toBe('to: must not be after 2026-11-27');
    expect(dayRefusal('from', '1999-12-31', NOW)).toBe(`from: must not be before ${FIRST_DAY}`);
    expect(dayRefusal('from', 'tomorrow', NOW)).toBe('from: must be a date, YYYY-MM-DD');
    expect(dayRefusal('from', '2026-11-27', NOW)).toBeUndefined();
  });

  it('make a range of at most 366 days, from not after to', () => {
    expect(rangeRefusal({ from: '2025-11-26', to: '2026-11-26' }, NOW)).toBeUndefined();
    expect(rangeRefusal({ from: '2025-11-25', to: '2026-11-26' }, NOW)).toBe(
      'from: at most 366 days before to, both included',
    );
    expect(rangeRefusal({ from: '2026-11-02', to: '2026-11-01' }, NOW)).toBe('from: must not be after to');
  });

  it('accept a range exactly when both ends are in the window, in order, and 366 days or fewer', () => {
    fc.assert(
      fc.property(anyDay, anyDay, (from, to) => {
        const inWindow = (day: string) => day >= FIRST_DAY && day <= lastDay(NOW);
        const fits = inWindow(from) && inWindow(to) && from <= to && daysIn(from, to) <= MAX_RANGE_DAYS;
        expect(rangeRefusal({ from, to }, NOW) === undefined).toBe(fits);
      }),
    );
  });

  it('never throw, and name the field, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), anyDay), (text) => {
        const refused = dayRefusal('from', text, NOW);
        expect(refused === undefined || refused.startsWith('from: ')).toBe(true);
      }),
    );
  });

  it('are walked by count: the last day of year 9999 is one day, not a loop past it', () => {
    expect(eachDay('9999-12-31', 1)).toEqual(['9999-12-31']);
    expect(eachDay('9999-12-31', 3)).toHaveLength(3);
    expect(eachDay('2026-11-30', 2)).toEqual(['2026-11-30', '2026-12-01']);
    fc.assert(
      fc.property(anyDay, fc.integer({ min: 0, max: 10_000 }), (from, count) => {
        const days = eachDay(from, count);
        expect(days).toHaveLength(Math.min(count, MAX_RANGE_DAYS));
        if (days.length > 0) expect(days.at(-1)).toBe(addDays(from, days.length - 1));
      }),
    );
  });
});
