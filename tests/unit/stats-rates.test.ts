/** The funnel's split and rates (docs/operators.md#rates): one arithmetic for the API, CSV, CLI and console. */
import { describe, expect, it } from 'vitest';
import { percent, rate, ratesOf, splitInstalls, sumRows } from '../../shared/stats-rates.ts';

describe('attributed and organic installs', () => {
  it('puts every carrier and the probabilistic match on the attributed side, unmatched reasons on the organic', () => {
    expect(
      splitInstalls({ clipboard: 2, referrer: 1, probabilistic: 3, 'unmatched:none': 5, 'unmatched:expired': 1 }),
    ).toEqual({
      attributed: 6,
      organic: 6,
      byAttributed: { clipboard: 2, referrer: 1, probabilistic: 3 },
      byUnmatched: { none: 5, expired: 1 },
    });
  });

  it('is nothing for no installs', () => {
    expect(splitInstalls({})).toEqual({ attributed: 0, organic: 0, byAttributed: {}, byUnmatched: {} });
  });
});

describe('rates', () => {
  it('divides, rounded to a hundredth of a percent', () => {
    expect(rate(1, 3)).toBe(0.3333);
    expect(rate(2, 3)).toBe(0.6667);
    expect(rate(0, 5)).toBe(0);
  });

  it('is null for a share of nothing, never Infinity or NaN', () => {
    expect(rate(3, 0)).toBeNull();
    expect(rate(0, 0)).toBeNull();
  });

  it('counts only attributed installs over taps; events over all installs', () => {
    const row = {
      views: 200,
      taps: 50,
      installs: 40,
      byMethod: { apk: 10, 'unmatched:none': 30 },
      events: { register: 20, pay: 2 },
    };
    expect(ratesOf(row)).toEqual({ tap: 0.25, install: 0.2, events: { register: 0.5, pay: 0.05 } });
  });

  it('reads as a percentage with one decimal, a dash for nothing', () => {
    expect(percent(0.25)).toBe('25.0%');
    expect(percent(0.3333)).toBe('33.3%');
    expect(percent(1)).toBe('100.0%');
    expect(percent(null)).toBe('–');
  });

  it('adds rows up before dividing, so a total rate is not an average of rates', () => {
    const total = sumRows([
      { views: 100, taps: 50, installs: 1, byMethod: { apk: 1 }, events: {} },
      { views: 900, taps: 50, installs: 9, byMethod: { clipboard: 4, 'unmatched:none': 5 }, events: { pay: 3 } },
    ]);
    expect(total).toEqual({
      views: 1000,
      taps: 100,
      installs: 10,
      byMethod: { apk: 1, clipboard: 4, 'unmatched:none': 5 },
      events: { pay: 3 },
    });
    expect(ratesOf(total)).toEqual({ tap: 0.1, install: 0.05, events: { pay: 0.3 } });
  });
});
