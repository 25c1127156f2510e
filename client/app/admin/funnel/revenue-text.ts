/**
 * Revenue as the console writes it (docs/operators.md#revenue): each currency's net sum from its
 * minor units and exponent as the stats API answers them, in the console's language, and the sum in
 * the operator's reporting currency beside it. A day-by-day range is added up here, per currency.
 */
import type { ReportedRevenue, RevenueFigure, StatsRow } from '../../../../shared/admin-contract.ts';

/** `amount` minor units of `currency` at `exponent`, as money in `locale`: 999, USD, 2 → "$9.99". */
export function moneyText(amount: number, currency: string, exponent: number, locale: string): string {
  const digits = { minimumFractionDigits: exponent, maximumFractionDigits: exponent };
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, ...digits }).format(amount / 10 ** exponent);
  } catch {
    // A code this engine's Intl does not know is still a code: written before the number.
    return `${currency} ${new Intl.NumberFormat(locale, digits).format(amount / 10 ** exponent)}`;
  }
}

/** Each currency's net revenue, largest number of events first, `·` between; '' for none. */
export function revenueText(revenue: Record<string, RevenueFigure> | undefined, locale: string): string {
  return Object.entries(revenue ?? {})
    .sort(([a, x], [b, y]) => y.events - x.events || (a < b ? -1 : 1))
    .map(([currency, { amount, exponent }]) => moneyText(amount, currency, exponent, locale))
    .join(' · ');
}

/** The sum in the reporting currency, or '' without one. */
export const reportedText = (reported: ReportedRevenue | undefined, locale: string): string =>
  reported ? moneyText(reported.amount, reported.currency, reported.exponent, locale) : '';

/** `rows`' revenue added up per currency, and their sums in the reporting currency. */
export function revenueOf(rows: readonly StatsRow[]): {
  revenue: Record<string, RevenueFigure>;
  reported?: ReportedRevenue;
} {
  const revenue: Record<string, RevenueFigure> = {};
  let reported: ReportedRevenue | undefined;
  for (const row of rows) {
    for (const [currency, figure] of Object.entries(row.revenue ?? {})) {
      const sum = revenue[currency] ?? { events: 0, amount: 0, refunds: 0, exponent: figure.exponent };
      revenue[currency] = {
        events: sum.events + figure.events,
        amount: sum.amount + figure.amount,
        refunds: sum.refunds + figure.refunds,
        exponent: figure.exponent,
      };
    }
    if (row.reported) {
      const unconverted = new Set([...(reported?.unconverted ?? []), ...row.reported.unconverted]);
      reported = {
        ...row.reported,
        amount: (reported?.amount ?? 0) + row.reported.amount,
        unconverted: [...unconverted],
      };
    }
  }
  return reported ? { revenue, reported } : { revenue };
}
