/**
 * Money (shared/money.ts, worker/funnel/revenue.ts, docs/operators.md#revenue): a decimal value read
 * as whole minor units from its shortest form, the reverse for reading, and the conversion to the
 * reporting currency at the operator's rates, rounded half to even.
 */

import currencyCodes from 'currency-codes';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../shared/config/schema.ts';
import { ISO_4217_BY_EXPONENT } from '../../shared/iso-4217.ts';
import { exponentOf, majorText, minorUnits } from '../../shared/money.ts';
import { reportedOf, scaledRate } from '../../worker/funnel/revenue.ts';
import { demoWith } from '../fixtures/config.ts';

describe('money', () => {
  it('knows exactly the codes and exponents of currency-codes, ISO 4217 list one', () => {
    const byExponent: Record<number, string[]> = {};
    for (const { code, digits } of currencyCodes.data) byExponent[digits] = [...(byExponent[digits] ?? []), code];
    const expected = Object.fromEntries(Object.entries(byExponent).map(([digits, codes]) => [digits, codes.join(' ')]));
    // On a new list: paste this into shared/iso-4217.ts.
    expect(ISO_4217_BY_EXPONENT, JSON.stringify(expected, null, 2)).toEqual(expected);
    for (const { code, digits } of currencyCodes.data) expect(exponentOf(code)).toBe(digits);
  });

  it('knows ISO 4217 codes and their exponents, in capitals only', () => {
    expect([exponentOf('USD'), exponentOf('JPY'), exponentOf('KWD'), exponentOf('CLF')]).toEqual([2, 0, 3, 4]);
    expect([exponentOf('usd'), exponentOf('XYZ'), exponentOf('US')]).toEqual([null, null, null]);
  });

  it('reads a decimal as whole minor units, never a float product, and refuses a fraction of the smallest unit', () => {
    expect(minorUnits(9.99, 2)).toBe(999);
    expect(minorUnits(0.29, 2)).toBe(29); // 0.29 × 100 is 28.999999999999996
    expect(minorUnits(-2.5, 2)).toBe(-250);
    expect(minorUnits(1234, 0)).toBe(1234);
    expect(minorUnits(9.999, 2)).toBeNull();
    expect(minorUnits(1e-7, 2)).toBeNull();
    expect(minorUnits(0.1 + 0.2, 2)).toBeNull();
  });

  it('turns any amount of minor units into a decimal that reads back to it', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom(0, 2, 3, 4), (amount, exponent) => {
        expect(minorUnits(Number(majorText(amount, exponent)), exponent)).toBe(amount);
      }),
    );
  });

  it('converts to the reporting currency at the scaled rate, half to even, and lists the currencies without a rate', () => {
    expect(scaledRate(1.08)).toEqual({ amount: 108n, scale: 2n });
    const revenue = {
      EUR: { events: 1, amount: 1, refunds: 0, exponent: 2 }, // 0.01 EUR × 1.5 = 0.015 → 0.02 USD (half to even)
      GBP: { events: 1, amount: 1, refunds: 0, exponent: 2 }, // 0.01 GBP × 1.25 = 0.0125 → 0.01 USD
      USD: { events: 1, amount: 100, refunds: 0, exponent: 2 },
      KRW: { events: 1, amount: 1000, refunds: 0, exponent: 0 },
    };
    expect(reportedOf(revenue, { currency: 'USD', rates: { EUR: 1.5, GBP: 1.25 } })).toEqual({
      currency: 'USD',
      amount: 103,
      exponent: 2,
      unconverted: ['KRW'],
    });
    expect(reportedOf(revenue, { rates: {} })).toBeNull();
  });

  it('refuses a rate table with an unknown code, a rate not above 0, or too many decimals', () => {
    const issue = (revenue: unknown) => {
      const result = v.safeParse(ConfigSchema, { ...demoWith({}), revenue });
      return result.success ? null : `${v.getDotPath(result.issues[0])}: ${result.issues[0].message}`;
    };
    expect(issue({ currency: 'USD', rates: { EUR: 1.08 } })).toBeNull();
    expect(issue({ currency: 'usd' })).toMatch(/^revenue.currency: must be an ISO 4217/);
    expect(issue({ rates: { XYZ: 1 } })).toMatch(/^revenue.rates.XYZ: must be an ISO 4217/);
    expect(issue({ rates: { EUR: 0 } })).toBe('revenue.rates.EUR: must be a rate above 0 and at most 1e9');
    expect(issue({ rates: { EUR: 1.0000000000001 } })).toBe('revenue.rates.EUR: must have at most 12 decimals');
  });
});
