/**
 * Revenue in the console (docs/operators.md#revenue): the channels table's revenue per currency with
 * its sum in the reporting currency, and the headline adding the days up per currency, in English and
 * Chinese.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { adminTexts } from '../../client/app/admin/admin-texts.ts';
import { FunnelTable } from '../../client/app/admin/funnel/funnel-table.tsx';
import { Headline } from '../../client/app/admin/funnel/headline.tsx';
import { moneyText, revenueOf } from '../../client/app/admin/funnel/revenue-text.ts';
import type { StatsRow } from '../../shared/admin-contract.ts';

function row(key: string, figures: Partial<StatsRow>): StatsRow {
  return {
    key,
    ...{ views: 0, visitors: 0, taps: 0, installs: 0, opens: 0, attributed: 0, organic: 0 },
    ...{ events: {}, values: {}, byPage: {}, byAction: {}, byMethod: {}, byUnmatched: {} },
    rates: { tap: null, install: null, events: {} },
    flagged: { installs: 0, byRule: {}, excluded: 0 },
    countedInstalls: 0,
    ...figures,
  };
}

const usd = { events: 2, amount: 1998, refunds: 0, exponent: 2 };
const jpy = { events: 1, amount: 500, refunds: 0, exponent: 0 };
const days = [
  row('2026-11-01', {
    revenue: { USD: usd, JPY: jpy },
    reported: { currency: 'USD', amount: 1998, exponent: 2, unconverted: ['JPY'] },
  }),
  row('2026-11-02', {
    revenue: { USD: { events: 1, amount: -499, refunds: 499, exponent: 2 } },
    reported: { currency: 'USD', amount: -499, exponent: 2, unconverted: [] },
  }),
];

describe('revenue in the console', () => {
  it('writes minor units by their exponent, in the language of the console', () => {
    expect(moneyText(999, 'USD', 2, 'en-US')).toBe('$9.99');
    expect(moneyText(500, 'JPY', 0, 'en-US')).toBe('¥500');
    expect(moneyText(1234, 'KWD', 3, 'en-US')).toMatch(/1\.234/);
    expect(moneyText(999, 'USD', 2, 'zh-CN')).toBe('US$9.99');
  });

  it('adds the days up per currency, refunds subtracted, and their reported sums', () => {
    expect(revenueOf(days)).toEqual({
      revenue: { USD: { events: 3, amount: 1499, refunds: 499, exponent: 2 }, JPY: jpy },
      reported: { currency: 'USD', amount: 1499, exponent: 2, unconverted: ['JPY'] },
    });
  });

  it('shows each currency in the channels table, and the headline names the currency without a rate', () => {
    for (const [language, reported, missing] of [
      ['en', '≈ $14.99 at your rates', 'no rate for JPY'],
      ['zh-CN', '按你的汇率约 US$14.99', 'JPY 没有汇率'],
    ] as const) {
      const t = adminTexts(language);
      const table = renderToStaticMarkup(
        <FunnelTable rows={days} heading="Day" className="days" t={t} keyAttribute="data-day" />,
      );
      expect(table).toContain(t.revenue);
      expect(table).toMatch(/data-revenue="2026-11-01"[^>]*>(\$19\.98 · ¥500|US\$19\.98 · JP¥500)/);
      const headline = renderToStaticMarkup(<Headline rows={days} t={t} />);
      expect(headline).toContain('data-total="revenue"');
      expect(headline).toContain(reported);
      expect(headline).toContain(missing);
    }
  });
});
