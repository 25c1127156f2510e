/**
 * The always-valid sequential test that judges a variant against the control
 * (docs/smart-links.md#the-sequential-test): the mixture sequential probability ratio test (mSPRT) of
 * Johari, Pekelis and Walsh, "Always Valid Inference: Continuous Monitoring of A/B Tests" (Operations
 * Research 70(3), 2022), on the difference of two proportions, with a normal mixing distribution.
 *
 * Its chance of ever naming a winner when the variants do not differ stays at most α however often
 * the counts are looked at (Ville's inequality on the mixture likelihood ratio, a martingale under
 * no difference), where a fixed-sample z-test checked at every look names one far more often.
 * `npm run ab:harness` measures both.
 */
import type { Verdict } from '../../shared/variants.ts';

/** The chance, over the whole experiment, of naming a winner where there is none. */
export const ALPHA = 0.05;

/**
 * The spread of the mixing distribution of the difference, as a share of the pooled rate: the
 * difference is weighed as if drawn from N(0, (τ·p̄)²). 0.2 centres the test's power on lifts of
 * about a fifth, the size a page's words move installs by; any τ keeps the error bound, a τ far
 * from the true lift only makes the test slower to name it.
 */
export const MIXING_SHARE = 0.2;

/**
 * The fewest visitors with the outcome, counting both arms, and the fewest visitors in each arm,
 * before any verdict: below them the normal approximation of a rate is too rough to judge by.
 */
export const MIN_OUTCOMES = 30;
export const MIN_VISITORS = 100;

/** One arm's counts: visitors, and those of them with the outcome. */
export interface ArmCounts {
  visitors: number;
  outcomes: number;
}

/** The test's numbers at one look, for a verdict and for the harness. */
export interface Look {
  /** The variant's rate less the control's. */
  difference: number;
  /** Half the width of the always-valid interval of the difference (Infinity: too few counts). */
  halfWidth: number;
  /** The control's rate. */
  controlRate: number;
}

/**
 * The mixture likelihood ratio Λ of "the difference is θ₀" for an estimate `difference` of variance
 * `variance` (V), mixing N(θ₀, τ²): Λ = √(V / (V + τ²)) · exp(τ²(θ̂ − θ₀)² / (2V(V + τ²))).
 */
export function mixtureRatio(difference: number, variance: number, tau2: number, theta0 = 0): number {
  const gap = difference - theta0;
  return Math.sqrt(variance / (variance + tau2)) * Math.exp((tau2 * gap * gap) / (2 * variance * (variance + tau2)));
}

/**
 * The half width of the always-valid interval: the θ₀ with Λ(θ₀) < 1/α are those within
 * √(2V(V + τ²)/τ² · ln(√((V + τ²)/V) / α)) of the estimate.
 */
export function halfWidthOf(variance: number, tau2: number, alpha: number): number {
  return Math.sqrt(
    ((2 * variance * (variance + tau2)) / tau2) * Math.log(Math.sqrt((variance + tau2) / variance) / alpha),
  );
}

/** The test's numbers for `variant` against `control` at this look, at level `alpha`. */
export function look(control: ArmCounts, variant: ArmCounts, alpha = ALPHA): Look {
  const controlRate = control.visitors > 0 ? control.outcomes / control.visitors : 0;
  const variantRate = variant.visitors > 0 ? variant.outcomes / variant.visitors : 0;
  const difference = variantRate - controlRate;
  const outcomes = control.outcomes + variant.outcomes;
  const visitors = control.visitors + variant.visitors;
  const enough =
    outcomes >= MIN_OUTCOMES &&
    visitors - outcomes >= MIN_OUTCOMES &&
    Math.min(control.visitors, variant.visitors) >= MIN_VISITORS;
  const variance =
    (controlRate * (1 - controlRate)) / Math.max(control.visitors, 1) +
    (variantRate * (1 - variantRate)) / Math.max(variant.visitors, 1);
  if (!enough || variance <= 0) return { difference, halfWidth: Number.POSITIVE_INFINITY, controlRate };
  const pooled = outcomes / visitors;
  const tau = MIXING_SHARE * pooled;
  return { difference, halfWidth: halfWidthOf(variance, tau * tau, alpha), controlRate };
}

/** True when the look names a winner: the interval of the difference leaves out 0. */
export const namesWinner = ({ difference, halfWidth }: Look): boolean => Math.abs(difference) >= halfWidth;

/**
 * The verdict of `variant` (named `variantName`) against `control` (`controlName`) at level `alpha`
 * (`ALPHA` split over the comparisons of the link: each variant is compared with the control).
 */
export function verdictOf(
  control: ArmCounts,
  variant: ArmCounts,
  names: { control: string; variant: string },
  alpha = ALPHA,
): Verdict {
  const seen = look(control, variant, alpha);
  if (!namesWinner(seen) || seen.controlRate <= 0) return { kind: 'no-winner-yet' };
  const { difference, halfWidth, controlRate } = seen;
  return {
    kind: 'winner',
    winner: difference > 0 ? names.variant : names.control,
    lift: difference / controlRate,
    interval: [(difference - halfWidth) / controlRate, (difference + halfWidth) / controlRate],
  };
}

/** The level of each comparison when a link has `arms` variants: α split over the arms − 1 comparisons. */
export const alphaPerComparison = (arms: number): number => ALPHA / Math.max(1, arms - 1);

/**
 * The naive test this one replaces, kept to show what it gets wrong: a fixed-sample two-proportion
 * z-test at 95 %, which is only right when looked at once, at a size fixed in advance.
 */
export function naiveLook(control: ArmCounts, variant: ArmCounts): Look {
  const controlRate = control.visitors > 0 ? control.outcomes / control.visitors : 0;
  const variantRate = variant.visitors > 0 ? variant.outcomes / variant.visitors : 0;
  const variance =
    (controlRate * (1 - controlRate)) / Math.max(control.visitors, 1) +
    (variantRate * (1 - variantRate)) / Math.max(variant.visitors, 1);
  const halfWidth = variance > 0 ? 1.959964 * Math.sqrt(variance) : Number.POSITIVE_INFINITY;
  return { difference: variantRate - controlRate, halfWidth, controlRate };
}
