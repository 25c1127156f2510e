/**
 * Revenue in the stats (docs/operators.md#revenue): the app events' values that name a currency, as
 * the consumer added them up in funnel_revenue (rollup.ts), read per group and currency in minor
 * units, and each row also in the operator's reporting currency by the operator's own rates
 * (`revenue` in the configuration). Sums and conversions are dinero.js's, on bigints, so nothing is
 * rounded but the conversion's last digit (half to even).
 */
import { add, convert, type Dinero, dinero, halfEven, toSnapshot, transformScale } from 'dinero.js/bigint';
import type { ReportedRevenue, RevenueFigure, StatsRow } from '../../shared/admin-contract.ts';
import type { RevenueConfig } from '../../shared/config/schema.ts';
import { exponentOf } from '../../shared/money.ts';

/** A revenue row of the query: a group's sums in one currency. */
export interface RevenueSum {
  key: string;
  currency: string;
  events: number;
  amount: number;
  refunds: number;
}

/** The query of each group's revenue per currency, under the stats' filter. */
export function revenueQuery(
  db: D1Database,
  column: string,
  filter: { sql: string; params: string[] },
): D1PreparedStatement {
  // TOTAL, a double: SUM of integers would fail the whole read on an overflow; held below 2^53 after.
  return db
    .prepare(
      `SELECT ${column} AS key, currency, SUM(events) AS events, TOTAL(amount) AS amount, TOTAL(refunds) AS refunds ` +
        `FROM funnel_revenue WHERE ${filter.sql} GROUP BY ${column}, currency`,
    )
    .bind(...filter.params);
}

/** `value` as a whole number within JavaScript's exact integers. */
const exact = (value: number): number =>
  Math.round(Math.min(Number.MAX_SAFE_INTEGER, Math.max(-Number.MAX_SAFE_INTEGER, value)));

const currencyOf = (code: string) => {
  const exponent = exponentOf(code);
  return exponent === null ? null : { code, base: 10n, exponent: BigInt(exponent) };
};

const money = (code: string, amount: number): Dinero<bigint> | null => {
  const currency = currencyOf(code);
  return currency ? dinero({ amount: BigInt(exact(amount)), currency }) : null;
};

const amountOf = (value: Dinero<bigint>): number => exact(Number(toSnapshot(value).amount));

/** Adds `figure` (one currency's sums) to `row.revenue`. */
export function addRevenue(row: StatsRow, currency: string, figure: Omit<RevenueFigure, 'exponent'>): void {
  const revenue = row.revenue ?? {};
  row.revenue = revenue;
  const before = revenue[currency];
  const next = money(currency, figure.amount);
  const exponent = exponentOf(currency);
  if (!next || exponent === null) return;
  if (!before) {
    revenue[currency] = { ...figure, amount: amountOf(next), refunds: exact(figure.refunds), exponent };
    return;
  }
  const sum = money(currency, before.amount);
  const refunds = money(currency, before.refunds);
  const moreRefunds = money(currency, figure.refunds);
  revenue[currency] = {
    events: before.events + figure.events,
    amount: sum ? amountOf(add(sum, next)) : before.amount,
    refunds: refunds && moreRefunds ? amountOf(add(refunds, moreRefunds)) : before.refunds,
    exponent,
  };
}

/** A rate as dinero takes it: 1.08 → `{ amount: 108n, scale: 2n }`, from its shortest decimal form. */
export function scaledRate(rate: number): { amount: bigint; scale: bigint } {
  const [whole = '0', fraction = ''] = String(rate).split('.');
  return { amount: BigInt(whole + fraction), scale: BigInt(fraction.length) };
}

/**
 * `revenue` (a row's sums per currency) in the reporting currency of `config`: each currency's net
 * amount converted at its rate and rounded half to even to the reporting currency's minor unit, then
 * added; a currency without a rate is listed in `unconverted` and left out. Null without a reporting
 * currency.
 */
export function reportedOf(
  revenue: Record<string, RevenueFigure> | undefined,
  config: RevenueConfig,
): ReportedRevenue | null {
  const target = config.currency ? currencyOf(config.currency) : null;
  if (!target || !config.currency) return null;
  let total = dinero({ amount: 0n, currency: target });
  const unconverted: string[] = [];
  for (const [code, figure] of Object.entries(revenue ?? {})) {
    const own = money(code, figure.amount);
    const rate = code === config.currency ? 1 : config.rates[code];
    if (!own || rate === undefined) {
      unconverted.push(code);
      continue;
    }
    const converted = code === config.currency ? own : convert(own, target, { [target.code]: scaledRate(rate) });
    total = add(total, transformScale(converted, target.exponent, halfEven));
  }
  return { currency: config.currency, amount: amountOf(total), exponent: Number(target.exponent), unconverted };
}

/** `rows` with each one's revenue also in the reporting currency, when the configuration names one. */
export function withReported<T extends StatsRow>(rows: readonly T[], config: RevenueConfig): T[] {
  return rows.map((row) => {
    const reported = reportedOf(row.revenue, config);
    return reported ? { ...row, reported } : row;
  });
}
