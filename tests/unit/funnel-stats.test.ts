import { describe, expect, it } from 'vitest';
import { type FunnelEvent, metricOf, NO_DIMENSIONS } from '../../worker/funnel/events.ts';
import { rollUp } from '../../worker/funnel/rollup.ts';
import { csvCell, statsCsv } from '../../worker/funnel/stats-csv.ts';
import { addMetric, parseStatsQuery, type StatsRow } from '../../worker/funnel/stats-query.ts';

const NOW = Date.UTC(2026, 10, 25, 12);

describe('the stats query', () => {
  it('defaults to the last 7 days by day', () => {
    expect(parseStatsQuery({}, NOW)).toEqual({ from: '2026-11-19', to: '2026-11-25', by: 'day' });
  });

  it('keeps the filters given', () => {
    expect(
      parseStatsQuery({ from: '2026-11-01', to: '2026-11-02', by: 'plain:channel', channel: 'a', link: 'b' }, NOW),
    ).toEqual({
      from: '2026-11-01',
      to: '2026-11-02',
      by: 'plain:channel',
      channel: 'a',
      link: 'b',
    });
  });

  it('takes a range of 366 days and refuses 367', () => {
    expect(parseStatsQuery({ from: '2025-01-01', to: '2026-01-01' }, NOW)).not.toHaveProperty('error');
    expect(parseStatsQuery({ from: '2024-01-01', to: '2025-01-01' }, NOW)).toEqual({
      error: 'from: at most 366 days before to, both included',
    });
  });

  it('refuses a day that does not exist', () => {
    expect(parseStatsQuery({ from: '2026-02-29' }, NOW)).toEqual({ error: 'from: must be a date, YYYY-MM-DD' });
  });

  it('refuses a day past year 9999 or before 2000, naming the field, rather than reading it', () => {
    expect(parseStatsQuery({ from: '9999-12-31', to: '9999-12-31' }, NOW)).toEqual({
      error: 'to: must not be after 2026-11-27',
    });
    expect(parseStatsQuery({ from: '9999-12-31' }, NOW)).toEqual({ error: 'from: must not be after 2026-11-27' });
    expect(parseStatsQuery({ to: '9999-12-31' }, NOW)).toEqual({ error: 'to: must not be after 2026-11-27' });
    expect(parseStatsQuery({ from: '0000-01-01' }, NOW)).toEqual({ error: 'from: must not be before 2000-01-01' });
    expect(parseStatsQuery({ to: '1999-12-31' }, NOW)).toEqual({ error: 'to: must not be before 2000-01-01' });
  });

  it('starts a default range no earlier than the first day', () => {
    expect(parseStatsQuery({ to: '2000-01-03' }, NOW)).toMatchObject({ from: '2000-01-01', to: '2000-01-03' });
  });
});

describe('a metric', () => {
  it.each<[FunnelEvent, string]>([
    [{ type: 'view', page: 'carrier' }, 'view:carrier'],
    [{ type: 'tap', action: 'guide' }, 'tap:guide'],
    [{ type: 'install', method: 'harmony' }, 'install:harmony'],
    [{ type: 'install', unmatched: 'ambiguous' }, 'install:unmatched:ambiguous'],
    [{ type: 'open', method: 'apk' }, 'open:apk'],
    [{ type: 'event', name: 'register', value: 2 }, 'event:register'],
  ])('of %j is %s', (event, metric) => {
    expect(metricOf(event)).toBe(metric);
  });

  it('adds to the row’s totals and breakdowns', () => {
    const row: StatsRow = {
      key: 'k',
      ...{ views: 0, visitors: 0, taps: 0, installs: 0, opens: 0 },
      ...{ events: {}, values: {}, byPage: {}, byAction: {}, byMethod: {} },
      ...{ attributed: 0, organic: 0, byUnmatched: {}, rates: { tap: null, install: null, events: {} } },
      ...{ flagged: { installs: 0, byRule: {}, excluded: 0 }, countedInstalls: 0 },
    };
    addMetric(row, 'install:unmatched:none', 2, 0);
    addMetric(row, 'install:apk', 1, 0);
    addMetric(row, 'event:pay', 3, 29.5);
    expect(row).toMatchObject({
      installs: 3,
      attributed: 1,
      organic: 2,
      byUnmatched: { none: 2 },
      byMethod: { 'unmatched:none': 2, apk: 1 },
      events: { pay: 3 },
      values: { pay: 29.5 },
    });
  });
});

describe('a batch rolled up', () => {
  const view = { type: 'view', page: 'landing' } as const;
  const message = (id: string, channel: string, visitor?: string) => ({
    v: 1 as const,
    id,
    day: '2026-11-20',
    event: view,
    dims: { ...NO_DIMENSIONS, channel },
    ...(visitor ? { visitor } : {}),
  });

  it('gives one increment per day, dimensions and metric', () => {
    const { daily } = rollUp([message('1', 'a'), message('2', 'a'), message('3', 'b')]);
    expect(daily.map((row) => [row[1], row.at(-3), row.at(-2)])).toEqual([
      ['a', 'view:landing', 2],
      ['b', 'view:landing', 1],
    ]);
  });

  it('counts an id once', () => {
    const { ids, daily } = rollUp([message('1', 'a'), message('1', 'a')]);
    expect(ids).toEqual(['1']);
    expect(daily[0]?.at(-2)).toBe(1);
  });

  it('gives one visitor row per visitor and dimensions', () => {
    expect(rollUp([message('1', 'a', 'v'), message('2', 'a', 'v'), message('3', 'b', 'v')]).visitors).toHaveLength(2);
  });

  it('makes visitors of views only: a tap queued with a visitor makes none', () => {
    const tap = { ...message('1', 'a', 'v'), event: { type: 'tap', action: 'download' } as const };
    expect(rollUp([tap]).visitors).toEqual([]);
  });

  it('sums app event values', () => {
    const pay = (id: string, value: number) => ({
      ...message(id, 'a'),
      event: { type: 'event', name: 'pay', value } as const,
    });
    expect(rollUp([pay('1', 2.5), pay('2', 4)]).daily[0]?.at(-1)).toBe(6.5);
  });
});

describe('the CSV', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['plain', 'plain'],
  ])('writes the cell %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('leaves numbers as numbers', () => {
    expect(csvCell(-3)).toBe('-3');
  });

  it('has a column per action, per method and per event name found', () => {
    const row: StatsRow = {
      key: 'spring',
      ...{ views: 4, visitors: 2, taps: 1, installs: 1, opens: 0 },
      ...{ events: { register: 1 }, values: {}, byPage: {}, byAction: { store: 1 }, byMethod: { apk: 1 } },
      ...{ attributed: 1, organic: 0, byUnmatched: {}, rates: { tap: 0.25, install: 1, events: { register: 1 } } },
      ...{ flagged: { installs: 1, byRule: { too_fast: 1 }, excluded: 1 }, countedInstalls: 0 },
    };
    const [header, line] = statsCsv([row]).split('\r\n');
    expect(header).toBe(
      'key,views,visitors,taps,tap:download,tap:store,tap:open,tap:guide,rate:tap,installs,installs:attributed,' +
        'installs:organic,rate:install,install:clipboard,install:referrer,' +
        'install:apk,install:harmony,install:meta,install:appgallery,install:probabilistic,install:unmatched:none,install:unmatched:ambiguous,' +
        'install:unmatched:expired,install:unmatched:unavailable,install:unmatched:claimed,installs:flagged,flagged:click_injection,' +
        'flagged:too_fast,flagged:self_referral,flagged:busy_network,installs:counted,opens,event:register,rate:event:register',
    );
    expect(line).toBe('spring,4,2,1,0,1,0,0,0.25,1,1,0,1,0,0,1,0,0,0,0,0,0,0,0,0,1,0,1,0,0,0,0,1,1');
  });
});
