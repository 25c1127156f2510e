/** `funnel.time_zone` (docs/operators.md#days-and-time-zones): the day of a time in a zone, and the field's validation. */
import { describe, expect, it } from 'vitest';
import { dayIn, isTimeZone } from '../../shared/time-zone.ts';
import { validateConfig } from '../../worker/config/validate.ts';

const doc = (funnel?: unknown): Record<string, unknown> => ({
  revision: 'r1',
  appData: [{ plat: 1, logo_url: '/logo.png', name: 'A', version: '1.0', size: '1 MB', updated_at: '2026-01-02' }],
  commonConfig: { tagline: 'T', description: 'D' },
  ...(funnel === undefined ? {} : { funnel }),
});

describe('dayIn', () => {
  const evening = Date.parse('2026-11-25T17:30:00Z');

  it("dates UTC, read without a zone formatter, as the runtime's UTC zone does, either side of midnight", () => {
    const zoned = new Intl.DateTimeFormat('en-CA', { timeZone: 'Etc/UTC', dateStyle: 'short' });
    for (const at of [
      '2026-11-25T23:59:59.999Z',
      '2026-11-26T00:00:00Z',
      '2024-02-29T12:00:00Z',
      '1999-12-31T23:59:59Z',
    ]) {
      expect(dayIn('UTC', Date.parse(at)), at).toBe(zoned.format(Date.parse(at)));
    }
  });

  it('is the day of the zone, across a day boundary', () => {
    expect(dayIn('Asia/Shanghai', evening)).toBe('2026-11-26');
    expect(dayIn('UTC', evening)).toBe('2026-11-25');
    expect(dayIn('America/Los_Angeles', evening)).toBe('2026-11-25');
    expect(dayIn('America/Los_Angeles', Date.parse('2026-11-26T07:59:00Z'))).toBe('2026-11-25');
    expect(dayIn('America/Los_Angeles', Date.parse('2026-11-26T08:00:00Z'))).toBe('2026-11-26');
  });

  it('knows IANA names and refuses others', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(() => dayIn('Mars/Olympus', evening)).toThrow(RangeError);
  });
});

describe('funnel.time_zone', () => {
  it('is UTC by default', () => {
    const result = validateConfig(doc());
    expect(result.ok && result.config.funnel.time_zone).toBe('UTC');
  });

  it('keeps an IANA zone', () => {
    const result = validateConfig(doc({ time_zone: 'Asia/Shanghai' }));
    expect(result.ok && result.config.funnel.time_zone).toBe('Asia/Shanghai');
  });

  it('refuses an unknown zone, naming the field', () => {
    const result = validateConfig(doc({ time_zone: 'Mars/Olympus' }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.path)).toEqual(['$.funnel.time_zone']);
    expect(result.problems[0]?.message).toMatch(/IANA time zone/);
  });
});
