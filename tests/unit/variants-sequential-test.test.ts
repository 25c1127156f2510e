/**
 * The sequential test that judges a link's variants (worker/variants/sequential-test.ts,
 * docs/smart-links.md#the-sequential-test): looked at 200 times per experiment, it names a false
 * winner in at most 5 % of no-difference experiments, where the naive z-test looked at as often does
 * far more; it finds a true lift; its interval is the set the mixture ratio does not reject.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../scripts/lib/ab-simulation.ts';
import {
  ALPHA,
  alphaPerComparison,
  halfWidthOf,
  look,
  mixtureRatio,
  naiveLook,
  verdictOf,
} from '../../worker/variants/sequential-test.ts';

// 200 experiments, 20,000 visitors each, a look every 100: the harness's shape, a fifth of its count.
const SHAPE = { experiments: 200, visitors: 20_000, every: 100, seed: 7 };
// 200 draws of a rate of at most 5 % land above 8 % with a chance below 1 %.
const TOLERANCE = 0.03;

describe('the sequential test over simulated experiments', () => {
  it.each([0.05, 0.1, 0.3])('names a false winner in at most 5 %% (+ tolerance) at rate %s, at 200 looks', (rate) => {
    const { rate: falseWinners } = simulate({ ...SHAPE, rate, ratio: 1 });
    expect(falseWinners).toBeLessThanOrEqual(ALPHA + TOLERANCE);
  });

  it('is not the naive z-test: that one, looked at as often, names a false winner in more than 5 %', () => {
    const sequential = simulate({ ...SHAPE, rate: 0.1, ratio: 1 });
    const naive = simulate({ ...SHAPE, rate: 0.1, ratio: 1, test: naiveLook });
    expect(naive.rate).toBeGreaterThan(ALPHA + TOLERANCE);
    expect(naive.rate).toBeGreaterThan(3 * sequential.rate);
  });

  it('finds a true +20 % lift at a 10 % install rate in at least 80 % of experiments, naming the variant', () => {
    const found = simulate({ ...SHAPE, rate: 0.1, ratio: 1.2 });
    expect(found.namedVariant / SHAPE.experiments).toBeGreaterThanOrEqual(0.8);
    expect(found.named - found.namedVariant).toBeLessThanOrEqual(2);
  });

  it('keeps its bound with an uneven split (a fifth to the variant)', () => {
    expect(simulate({ ...SHAPE, rate: 0.1, ratio: 1, share: 0.2 }).rate).toBeLessThanOrEqual(ALPHA + TOLERANCE);
  });
});

describe('the mixture ratio and its interval', () => {
  it("is the paper's two-stream formula when both arms have n visitors (V = 2σ²/n)", () => {
    const [sigma2, n, tau2, diff] = [0.09, 5000, 0.0004, 0.012];
    const paper =
      Math.sqrt((2 * sigma2) / (2 * sigma2 + n * tau2)) *
      Math.exp((n * n * tau2 * diff * diff) / (4 * sigma2 * (2 * sigma2 + n * tau2)));
    expect(mixtureRatio(diff, (2 * sigma2) / n, tau2)).toBeCloseTo(paper, 10);
  });

  it('puts Λ = 1/α exactly at the ends of the interval', () => {
    const [variance, tau2, diff] = [2e-5, 1e-4, 0.01];
    const half = halfWidthOf(variance, tau2, ALPHA);
    expect(mixtureRatio(diff, variance, tau2, diff + half)).toBeCloseTo(1 / ALPHA, 8);
    expect(mixtureRatio(diff, variance, tau2, diff - half)).toBeCloseTo(1 / ALPHA, 8);
    expect(mixtureRatio(diff, variance, tau2, diff - half / 2)).toBeLessThan(1 / ALPHA);
  });

  it('is wider than the fixed-sample interval at the same counts: the price of looking at any time', () => {
    const control = { visitors: 5000, outcomes: 500 };
    const variant = { visitors: 5000, outcomes: 560 };
    expect(look(control, variant).halfWidth).toBeGreaterThan(naiveLook(control, variant).halfWidth);
  });
});

describe('the verdict', () => {
  const names = { control: 'a', variant: 'b' };

  it('names the variant with its lift and an interval around it when it clearly wins', () => {
    const verdict = verdictOf({ visitors: 10_000, outcomes: 1000 }, { visitors: 10_000, outcomes: 1250 }, names);
    expect(verdict.kind).toBe('winner');
    if (verdict.kind !== 'winner') return;
    expect(verdict.winner).toBe('b');
    expect(verdict.lift).toBeCloseTo(0.25, 10);
    expect(verdict.interval[0]).toBeGreaterThan(0);
    expect(verdict.interval[0]).toBeLessThan(0.25);
    expect(verdict.interval[1]).toBeGreaterThan(0.25);
  });

  it('names the control when the variant clearly loses, the lift below 0', () => {
    const verdict = verdictOf({ visitors: 10_000, outcomes: 1250 }, { visitors: 10_000, outcomes: 1000 }, names);
    expect(verdict).toMatchObject({ kind: 'winner', winner: 'a' });
    if (verdict.kind === 'winner') expect(verdict.interval[1]).toBeLessThan(0);
  });

  it('says no winner yet on a small difference, on too few outcomes and on too few visitors', () => {
    expect(verdictOf({ visitors: 10_000, outcomes: 1000 }, { visitors: 10_000, outcomes: 1020 }, names).kind).toBe(
      'no-winner-yet',
    );
    expect(verdictOf({ visitors: 5000, outcomes: 2 }, { visitors: 5000, outcomes: 25 }, names).kind).toBe(
      'no-winner-yet',
    );
    expect(verdictOf({ visitors: 99, outcomes: 10 }, { visitors: 5000, outcomes: 4000 }, names).kind).toBe(
      'no-winner-yet',
    );
    expect(verdictOf({ visitors: 0, outcomes: 0 }, { visitors: 0, outcomes: 0 }, names).kind).toBe('no-winner-yet');
  });

  it('splits α over the comparisons: a link of 8 variants tests each of 7 at α/7', () => {
    expect(alphaPerComparison(2)).toBe(ALPHA);
    expect(alphaPerComparison(8)).toBeCloseTo(ALPHA / 7, 12);
    const control = { visitors: 10_000, outcomes: 1000 };
    const variant = { visitors: 10_000, outcomes: 1130 };
    expect(look(control, variant, alphaPerComparison(8)).halfWidth).toBeGreaterThan(look(control, variant).halfWidth);
  });
});
