/**
 * The console's figures (docs/operators.md#attributed-and-organic): the headline's rates and changes
 * against the previous period, and the funnel tables with organic installs apart.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { adminTexts } from '../../client/app/admin/admin-texts.ts';
import { DrillDownFigures } from '../../client/app/admin/funnel/drill-down-panel.tsx';
import { changeOf, changeText } from '../../client/app/admin/funnel/figure-change.ts';
import { breakdown, FunnelTable } from '../../client/app/admin/funnel/funnel-table.tsx';
import { Headline, headlineOf } from '../../client/app/admin/funnel/headline.tsx';
import type { StatsRow } from '../../shared/admin-contract.ts';
import { ratesOf, splitInstalls } from '../../shared/stats-rates.ts';

const t = adminTexts('en');

function row(key: string, figures: Partial<StatsRow>): StatsRow {
  const base: StatsRow = {
    key,
    ...{ views: 0, visitors: 0, taps: 0, installs: 0, opens: 0, attributed: 0, organic: 0 },
    ...{ events: {}, values: {}, byPage: {}, byAction: {}, byMethod: {}, byUnmatched: {} },
    rates: { tap: null, install: null, events: {} },
    flagged: { installs: 0, byRule: {}, excluded: 0 },
    countedInstalls: 0,
    ...figures,
  };
  const { attributed, organic, byUnmatched } = splitInstalls(base.byMethod);
  return { ...base, attributed, organic, byUnmatched, rates: ratesOf(base) };
}

describe('a change against the previous period', () => {
  it('is (now − before) ÷ before', () => {
    expect(changeOf(15, 10)).toBe(0.5);
    expect(changeOf(5, 10)).toBe(-0.5);
    expect(changeOf(10, 10)).toBe(0);
    expect(changeOf(1, 3)).toBe(-0.667);
  });

  it('is new after nothing, and nothing after nothing', () => {
    expect(changeOf(4, 0)).toBe('new');
    expect(changeOf(0, 0)).toBeNull();
  });

  it('reads with its sign', () => {
    expect(changeText(0.5)).toBe('+50.0%');
    expect(changeText(-0.667)).toBe('−66.7%');
    expect(changeText(0)).toBe('±0%');
  });
});

const days = [
  row('2026-11-01', { views: 100, taps: 20, installs: 8, byMethod: { clipboard: 4, 'unmatched:none': 4 } }),
  row('2026-11-02', { views: 100, taps: 20, installs: 2, byMethod: { referrer: 1, 'unmatched:expired': 1 } }),
];

describe('the headline', () => {
  it('adds the days up and keeps attributed and organic installs apart, each rate from the sums', () => {
    expect(headlineOf(days)).toEqual({
      views: { count: 200 },
      taps: { count: 40, rate: 0.2 },
      attributed: { count: 5, rate: 0.125 },
      organic: { count: 5 },
      events: { count: 0 },
    });
  });

  it('writes beside each figure its rate with what it divides by, and its change with the period named', () => {
    const previous = row('', { views: 400, taps: 40, installs: 0, events: {} });
    const html = renderToStaticMarkup(<Headline rows={days} previous={previous} t={t} />);
    const figure = (name: string) =>
      new RegExp(`data-total="${name}"><dt>[^<]*</dt><dd>(.*?)</dd>`).exec(html)?.[1]?.replace(/<[^>]+>/g, '|');
    // Two days shown: the previous period is the 2 days before. All of it is text, none only a tooltip.
    expect(figure('views')).toBe('|200||−50.0% vs the 2 days before|');
    expect(figure('taps')).toBe('|40||20.0% of views||±0% vs the 2 days before|');
    expect(figure('attributed')).toBe('|5||12.5% of taps||new: none in the 2 days before|');
    // No events now or before: no change to show.
    expect(figure('events')).toBe('|0|');
  });

  it('names a period of one day, and says it in Chinese', () => {
    const previous = row('', { views: 100 });
    const one = [row('2026-11-02', { views: 112 })];
    expect(renderToStaticMarkup(<Headline rows={one} previous={previous} t={t} />)).toContain(
      '+12.0% vs the day before',
    );
    const zh = renderToStaticMarkup(<Headline rows={days} previous={previous} t={adminTexts('zh-CN')} />);
    expect(zh).toContain('较前 2 天 +100.0%');
    expect(zh).toContain('浏览的 20.0%');
  });

  it('shows no change without a previous period', () => {
    expect(renderToStaticMarkup(<Headline rows={days} t={t} />)).not.toContain('class="change');
  });
});

describe('a funnel table', () => {
  it('shows a channel’s attributed installs with its methods, and organic ones apart with their reasons', () => {
    const channels = [
      row('spring', {
        views: 10,
        taps: 4,
        installs: 3,
        byMethod: { clipboard: 2, probabilistic: 1 },
        events: { pay: 3 },
      }),
      row('', { views: 5, taps: 0, installs: 6, byMethod: { 'unmatched:none': 4, 'unmatched:ambiguous': 2 } }),
    ];
    const html = renderToStaticMarkup(
      <FunnelTable
        rows={channels}
        heading="Channel"
        className="channels-table"
        keyAttribute="data-channel-row"
        t={t}
      />,
    );
    const cells = (key: string) =>
      [
        ...(new RegExp(`data-channel-row="${key}">(.*?)</tr>`).exec(html)?.[1] ?? '').matchAll(
          /<t[hd][^>]*>(.*?)<\/t[hd]>/g,
        ),
      ].map((match) => match[1]?.replace(/<[^>]+>/g, ''));
    expect(cells('spring')).toEqual([
      'spring',
      '10',
      '4',
      '40.0%',
      '3',
      '75.0%',
      'clipboard 2 · probabilistic 1',
      '0',
      'pay 3 (100.0%)',
      // Revenue (docs/operators.md#revenue): none in this row.
      '',
    ]);
    expect(cells('')).toEqual(['(none)', '5', '0', '0.0%', '0', '–', '', '6 (none 4 · ambiguous 2)', '', '']);
  });

  it('says in each rate’s heading what it divides by', () => {
    const html = renderToStaticMarkup(
      <FunnelTable rows={days} heading="Day" className="days-table" keyAttribute="data-day-row" t={t} />,
    );
    expect(html).toContain('Tap rate (÷ views)');
    expect(html).toContain('Install rate (÷ taps)');
    expect(html).toContain('App events (÷ installs)');
  });

  it('lists a breakdown largest first, leaving out zeros', () => {
    expect(breakdown({ a: 1, b: 3, c: 0, d: 1 })).toBe('b 3 · a 1 · d 1');
  });
});

describe('the drill-down', () => {
  it('lists the organic installs once: their count in the headline, beside it only why they were not matched', () => {
    const html = renderToStaticMarkup(<DrillDownFigures opened={{ days, os: [], inapp: [] }} t={t} />);
    const text = html.replace(/<[^>]+>/g, '|');
    // The headline's card and the day table's heading; never a second list of them among the facts.
    expect(text.match(/\|Organic installs\|/g)).toHaveLength(2);
    expect(html).toContain('<dt>Not matched, by reason</dt><dd>none 4 · expired 1</dd>');
    expect(html).not.toContain('data-fact="organic"');
  });
});
