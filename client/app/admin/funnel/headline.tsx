/**
 * The console's headline (docs/operators.md#the-console): the range's views, taps, attributed and
 * organic installs and app events, each rate beside its count, and the change against the previous
 * period of the same length beside each figure; then the revenue per currency (docs/operators.md#revenue).
 */
import type { StatsRow } from '../../../../shared/admin-contract.ts';
import { percent, ratesOf, splitInstalls, sumRows } from '../../../../shared/stats-rates.ts';
import { changeOf, changeText } from './figure-change.ts';
import type { FunnelTexts } from './funnel-texts.ts';
import { reportedText, revenueOf, revenueText } from './revenue-text.ts';

/** The headline's figures, in order. */
export const HEADLINE = ['views', 'taps', 'attributed', 'organic', 'events'] as const;
export type HeadlineFigure = (typeof HEADLINE)[number];

/** Each headline figure of `rows` added up, with its rate where it has one. */
export function headlineOf(rows: readonly StatsRow[]): Record<HeadlineFigure, { count: number; rate?: number | null }> {
  const total = sumRows(rows);
  const rates = ratesOf(total);
  const { attributed, organic } = splitInstalls(total.byMethod);
  const events = Object.values(total.events).reduce((sum, count) => sum + count, 0);
  return {
    views: { count: total.views },
    taps: { count: total.taps, rate: rates.tap },
    attributed: { count: attributed, rate: rates.install },
    organic: { count: organic },
    events: { count: events },
  };
}

/** The range's revenue per currency, and its sum in the reporting currency; nothing without revenue. */
function RevenueHeadline({ rows, t }: { rows: StatsRow[]; t: FunnelTexts }) {
  const { revenue, reported } = revenueOf(rows);
  if (Object.keys(revenue).length === 0) return null;
  const unconverted = reported?.unconverted ?? [];
  return (
    <div data-total="revenue">
      <dt>{t.revenue}</dt>
      <dd>
        <span className="count">{revenueText(revenue, t.moneyLocale)}</span>
        {reported ? <span className="rate">{t.reportedAs(reportedText(reported, t.moneyLocale))}</span> : null}
        {unconverted.length > 0 ? <span className="change">{t.withoutRate(unconverted.join(', '))}</span> : null}
      </dd>
    </div>
  );
}

/**
 * The headline of `rows` (one per day of the range), each figure with its rate and what the rate
 * divides by, and its change against `previous` written out with the period named — never only in a
 * tooltip, which a phone cannot show.
 */
export function Headline({ rows, previous, t }: { rows: StatsRow[]; previous?: StatsRow; t: FunnelTexts }) {
  const now = headlineOf(rows);
  const before = previous ? headlineOf([previous]) : undefined;
  // The previous period is as long as the range: one row per day.
  const days = rows.length;
  return (
    <dl className="totals">
      {HEADLINE.map((figure) => {
        const { count, rate } = now[figure];
        const change = before ? changeOf(count, before[figure].count) : null;
        const trend = change === null || change === 'new' || change === 0 ? '' : change > 0 ? 'up' : 'down';
        return (
          <div key={figure} data-total={figure}>
            <dt>{t[figure]}</dt>
            <dd>
              <span className="count">{count}</span>
              {rate === undefined ? null : (
                <span className="rate" title={figure === 'taps' ? t.tapRate : t.installRate}>
                  {t.rateOf(percent(rate), figure === 'taps' ? 'taps' : 'attributed')}
                </span>
              )}
              {change === null ? null : (
                <span className={trend ? `change ${trend}` : 'change'}>
                  {change === 'new' ? t.newVersus(days) : t.versus(changeText(change), days)}
                </span>
              )}
            </dd>
          </div>
        );
      })}
      <RevenueHeadline rows={rows} t={t} />
    </dl>
  );
}
