import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clickInjection, type InstallTimes, timeFlags, tooFast } from '../../worker/fraud/rules.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const s = (ms: number) => Math.floor(ms / 1000);
const base: InstallTimes = { clickedAt: null, launchedAt: NOW, tooFastSeconds: 10 };

describe('click injection (docs/fraud.md)', () => {
  it('flags a referrer click after install-begin on the same clock, with the gap', () => {
    const referrer = {
      referrerClickTimestampServerSeconds: s(NOW) - 5,
      installBeginTimestampServerSeconds: s(NOW) - 60,
    };
    expect(clickInjection({ ...base, referrer })).toEqual({
      rule: 'click_injection',
      reason: 'referrer click (Play server clock) 55 s after install began',
    });
  });

  it('never compares one clock with the other', () => {
    const referrer = { referrerClickTimestampServerSeconds: s(NOW) - 5, installBeginTimestampSeconds: s(NOW) - 60 };
    expect(clickInjection({ ...base, referrer })).toBeNull();
  });

  it("flags the recorded click after install-begin, and reads Play's 0 as unknown", () => {
    expect(
      clickInjection({ ...base, clickedAt: NOW - 1000, referrer: { installBeginTimestampSeconds: s(NOW) - 30 } }),
    ).toMatchObject({ rule: 'click_injection' });
    expect(
      clickInjection({
        ...base,
        clickedAt: NOW - 1000,
        referrer: { installBeginTimestampServerSeconds: 0, referrerClickTimestampServerSeconds: s(NOW) },
      }),
    ).toBeNull();
  });

  it('never flags a click in the same second as install-begin, though it was a moment later', () => {
    const begin = s(NOW) - 30;
    expect(
      clickInjection({ ...base, clickedAt: begin * 1000 + 999, referrer: { installBeginTimestampSeconds: begin } }),
    ).toBeNull();
  });

  it('never flags a click before install-begin, whatever the times (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_500_000_000, max: 4_000_000_000 }),
        fc.integer({ min: 0, max: 30 * 86_400 }),
        fc.integer({ min: 0, max: 999 }),
        fc.boolean(),
        (begin, before, ms, server) => {
          const click = begin - before;
          const referrer = server
            ? { referrerClickTimestampServerSeconds: click, installBeginTimestampServerSeconds: begin }
            : { referrerClickTimestampSeconds: click, installBeginTimestampSeconds: begin };
          return clickInjection({ ...base, clickedAt: click * 1000 + ms, referrer }) === null;
        },
      ),
    );
  });
});

describe('too fast (docs/fraud.md)', () => {
  it('flags a first launch below the floor, from the recorded click', () => {
    expect(tooFast({ ...base, clickedAt: NOW - 4200 })).toEqual({
      rule: 'too_fast',
      reason: 'first launch 4.2 s after the click (floor 10 s)',
    });
    expect(tooFast({ ...base, clickedAt: NOW - 10_000 })).toBeNull();
    expect(tooFast({ ...base, clickedAt: NOW - 4200, tooFastSeconds: 3 })).toBeNull();
  });

  it("reads the referrer's click when no click was recorded, and nothing without either", () => {
    expect(tooFast({ ...base, referrer: { referrerClickTimestampServerSeconds: s(NOW) - 2 } })).toMatchObject({
      rule: 'too_fast',
    });
    expect(tooFast(base)).toBeNull();
  });

  it('never flags an ordinary delay (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10_000, max: 90 * 86_400_000 }),
        (delay) => timeFlags({ ...base, clickedAt: NOW - delay }).length === 0,
      ),
    );
  });
});
