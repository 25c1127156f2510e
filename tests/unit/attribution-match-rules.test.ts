import { describe, expect, it } from 'vitest';
import { compatible, type DeviceTuple, matchConfidence } from '../../worker/attribution/match-rules.ts';

const CLICK: DeviceTuple = {
  family: 'android',
  version: '14',
  model: 'SM-S911B',
  short: 360,
  long: 780,
  scale: 3,
  tz: 'Asia/Kolkata',
  lang: 'en',
};
const UNKNOWN = { ...CLICK, version: null, model: null };
const FAR = { sameAddress: false, minutes: 60 };

describe('compatible', () => {
  it('lets the screen differ by 2 points for rounding, not 3', () => {
    expect(compatible(CLICK, { ...CLICK, short: 362, long: 778 })).toBe(true);
    expect(compatible(CLICK, { ...CLICK, short: 363 })).toBe(false);
  });

  it('lets the scale differ by 0.1, not more', () => {
    expect(compatible(CLICK, { ...CLICK, scale: 3.1 })).toBe(true);
    expect(compatible({ ...CLICK, scale: 2.625 }, { ...CLICK, scale: 2.725 })).toBe(true);
    expect(compatible(CLICK, { ...CLICK, scale: 3.2 })).toBe(false);
  });

  it('compares models whatever their case, and only where both sides tell one', () => {
    expect(compatible(CLICK, { ...CLICK, model: 'sm-s911b' })).toBe(true);
    expect(compatible(CLICK, { ...CLICK, model: null })).toBe(true);
    expect(compatible(CLICK, { ...CLICK, model: 'SM-A546B' })).toBe(false);
  });
});

describe('matchConfidence', () => {
  it('is 60 for uniqueness alone', () => {
    expect(matchConfidence(UNKNOWN, UNKNOWN, FAR)).toBe(60);
  });

  it('adds 10 when both sides told the OS version', () => {
    expect(matchConfidence({ ...UNKNOWN, version: '14' }, { ...UNKNOWN, version: '14' }, FAR)).toBe(70);
    expect(matchConfidence({ ...UNKNOWN, version: '14' }, UNKNOWN, FAR)).toBe(60);
  });

  it('adds 10 when both sides told the model', () => {
    expect(matchConfidence({ ...UNKNOWN, model: 'SM-S911B' }, { ...UNKNOWN, model: 'SM-S911B' }, FAR)).toBe(70);
    expect(matchConfidence(UNKNOWN, { ...UNKNOWN, model: 'SM-S911B' }, FAR)).toBe(60);
  });

  it('adds 10 for the same address', () => {
    expect(matchConfidence(UNKNOWN, UNKNOWN, { ...FAR, sameAddress: true })).toBe(70);
  });

  it('adds 5 for a tap at most 15 minutes old', () => {
    expect(matchConfidence(UNKNOWN, UNKNOWN, { ...FAR, minutes: 15 })).toBe(65);
    expect(matchConfidence(UNKNOWN, UNKNOWN, { ...FAR, minutes: 15.1 })).toBe(60);
  });

  it('stays below a carrier’s 100 with every fact told', () => {
    expect(matchConfidence(CLICK, CLICK, { sameAddress: true, minutes: 1 })).toBe(95);
  });
});
