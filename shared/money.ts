/**
 * Money as Lander counts it (docs/operators.md#revenue): an ISO 4217 currency code and an integer
 * amount in that currency's minor unit (cents of USD, yen of JPY, fils of KWD). The codes and their
 * minor-unit exponents are ISO 4217's list as `currency-codes` publishes it (iso-4217.ts); nothing
 * here holds a floating-point amount past the moment an app's decimal is read.
 */
import { ISO_4217_BY_EXPONENT } from './iso-4217.ts';

const EXPONENTS: ReadonlyMap<string, number> = new Map(
  Object.entries(ISO_4217_BY_EXPONENT).flatMap(([exponent, codes]) =>
    codes.split(' ').map((code): [string, number] => [code, Number(exponent)]),
  ),
);

/** The largest amount one event carries, in minor units: the bound of every app event's value. */
export const MAX_EVENT_AMOUNT = 1e12;

/** The minor-unit exponent of ISO 4217 code `code` (2 for USD, 0 for JPY, 3 for KWD), or null when ISO 4217 has no such code. */
export function exponentOf(code: string): number | null {
  // Capitals only: "usd" would be a row of its own beside "USD".
  return EXPONENTS.get(code) ?? null;
}

/** Whether `code` is an ISO 4217 code. */
export const isCurrency = (code: string): boolean => exponentOf(code) !== null;

/**
 * `value` in the major unit (9.99) as an integer of minor units at `exponent` (999), read from the
 * number's shortest decimal form, so 9.99 is 999 and never 998.9999…; null when it has more decimals
 * than `exponent` (9.999 USD) — a fraction of the smallest unit cannot be counted.
 */
export function minorUnits(value: number, exponent: number): number | null {
  if (!Number.isFinite(value)) return null;
  const text = String(Math.abs(value));
  // Shortest forms with an exponent are below 1e-6 or at least 1e21: never a countable amount but 0.
  if (text.includes('e')) return value === 0 ? 0 : null;
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > exponent) return null;
  const minor = Number(whole + fraction.padEnd(exponent, '0'));
  return value < 0 ? -minor : minor;
}

/** How many decimals the shortest form of `value` has (9.99 → 2); Infinity when it needs an exponent below 1e-6. */
export function decimalsOf(value: number): number {
  const text = String(Math.abs(value));
  if (text.includes('e-')) return Number.POSITIVE_INFINITY;
  return text.split('.')[1]?.length ?? 0;
}

/** `amount` minor units at `exponent` as a decimal text of the major unit: 999, 2 → "9.99"; −5, 2 → "-0.05". */
export function majorText(amount: number, exponent: number): string {
  const digits = String(Math.abs(amount)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const text = exponent === 0 ? whole : `${whole}.${digits.slice(digits.length - exponent)}`;
  return amount < 0 ? `-${text}` : text;
}
