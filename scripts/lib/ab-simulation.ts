/**
 * Simulated experiments for the sequential test (docs/smart-links.md#the-harness): visitors split
 * between the control and one variant, each installing at its arm's rate, the test looked at every
 * `every` visitors up to `visitors`. An experiment "names a winner" when any of its looks does — what
 * an operator who opens the console every hour and stops at the first winner would see.
 */
import { type ArmCounts, type Look, look, namesWinner } from '../../worker/variants/sequential-test.ts';

/** A look at two arms' counts: the sequential test's, or the naive z-test's. */
export type LookAt = (control: ArmCounts, variant: ArmCounts) => Look;

export interface Simulation {
  experiments: number;
  /** Visitors in all, per experiment. */
  visitors: number;
  /** A look every this many visitors. */
  every: number;
  /** The control's rate of the outcome. */
  rate: number;
  /** The variant's rate over the control's: 1 is no difference, 1.2 is +20 %. */
  ratio: number;
  /** The variant's share of visitors. */
  share?: number;
  seed: number;
  test?: LookAt;
}

export interface Outcome {
  /** Experiments in which some look named a winner. */
  named: number;
  /** Of those, the ones where the named winner is the variant (the better arm, when ratio > 1). */
  namedVariant: number;
  /** The share of experiments that named a winner. */
  rate: number;
  /** The visitors seen when the variant was first named, averaged over the experiments that named it. */
  meanVisitorsToVariant: number;
}

/** A seeded pseudo-random source (mulberry32): the same seed draws the same experiments. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs `experiments` simulated experiments and counts those in which the test named a winner. */
export function simulate({
  experiments,
  visitors,
  every,
  rate,
  ratio,
  share = 0.5,
  seed,
  test = (control, variant) => look(control, variant),
}: Simulation): Outcome {
  const random = seeded(seed);
  const variantRate = rate * ratio;
  let named = 0;
  let namedVariant = 0;
  let visitorsToVariant = 0;
  for (let experiment = 0; experiment < experiments; experiment += 1) {
    const control: ArmCounts = { visitors: 0, outcomes: 0 };
    const variant: ArmCounts = { visitors: 0, outcomes: 0 };
    for (let seen = 1; seen <= visitors; seen += 1) {
      const arm = random() < share ? variant : control;
      arm.visitors += 1;
      if (random() < (arm === variant ? variantRate : rate)) arm.outcomes += 1;
      if (seen % every !== 0) continue;
      const at = test(control, variant);
      if (!namesWinner(at)) continue;
      named += 1;
      if (at.difference > 0) {
        namedVariant += 1;
        visitorsToVariant += seen;
      }
      break;
    }
  }
  return {
    named,
    namedVariant,
    rate: named / experiments,
    meanVisitorsToVariant: namedVariant > 0 ? visitorsToVariant / namedVariant : Number.NaN,
  };
}
