/** Times in the operator's zone (client/app/admin/shared/zoned-time.ts): shown and read on its wall clock. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantIn, localInputIn, timeIn } from '../../client/app/admin/shared/zoned-time.ts';

const ZONES = ['UTC', 'Asia/Shanghai', 'Asia/Kolkata', 'America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe'];

describe('times in the operator’s zone', () => {
  it('shows an instant on the zone’s wall clock, not the browser’s or UTC', () => {
    expect(timeIn('Asia/Shanghai', '2026-11-28T15:04:05.000Z')).toBe('2026-11-28 23:04:05');
    expect(timeIn('America/New_York', '2026-11-28T03:00:00Z')).toBe('2026-11-27 22:00:00');
    expect(timeIn('UTC', 'not a time')).toBe('not a time');
    expect(localInputIn('Asia/Kolkata', '2026-11-28T00:00:00Z')).toBe('2026-11-28T05:30');
  });

  it('reads a typed time in the zone: every minute shown reads back as itself', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.parse('2000-01-01'), max: Date.parse('2099-12-31') }),
        (zone, time) => {
          const minute = time - (time % 60_000);
          const shown = localInputIn(zone, new Date(minute).toISOString());
          const read = instantIn(zone, shown);
          // A repeated hour reads as its first pass: the same wall clock, at most the shift earlier.
          expect(localInputIn(zone, new Date(read).toISOString())).toBe(shown);
          expect(read).toBeLessThanOrEqual(minute);
          expect(minute - read).toBeLessThanOrEqual(3_600_000);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads a repeated hour as its first pass and a skipped one as the clock not yet put forward', () => {
    // New York: clocks back at 02:00 EDT on 2026-11-01, forward at 02:00 EST on 2026-03-08.
    expect(new Date(instantIn('America/New_York', '2026-11-01T01:30')).toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(new Date(instantIn('America/New_York', '2026-03-08T02:30')).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    // The first minute of Berlin's repeated hour (clocks back at 03:00 CEST): its first pass, in CEST.
    expect(new Date(instantIn('Europe/Berlin', '2012-10-28T02:00')).toISOString()).toBe('2012-10-28T00:00:00.000Z');
  });
});
