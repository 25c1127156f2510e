/**
 * A link's experiment as `GET /api/links/<slug>/experiment` answers it
 * (docs/smart-links.md#variants-and-the-sequential-test): each variant's visitors, installs and chosen
 * app event, and each variant's verdict against the control by the sequential test, α split over the
 * comparisons.
 */
import type { Experiment, ExperimentArm, ExperimentView } from '../../shared/variants.ts';
import type { VariantCounts } from '../funnel/variant-counts.ts';
import { alphaPerComparison, verdictOf } from './sequential-test.ts';

const NONE: VariantCounts = { visitors: 0, installs: 0, events: 0 };

/**
 * The experiment of link `slug` with `experiment`, from its counts by variant, judged on the app
 * event `event` (else installs). A variant's outcomes are at most its visitors: each visitor
 * installs once, and the chosen event should be one an install sends once (docs/smart-links.md).
 */
export function experimentView(
  slug: string,
  experiment: Experiment,
  counts: ReadonlyMap<string, VariantCounts>,
  event: string | null,
): ExperimentView {
  const { variants } = experiment;
  const alpha = alphaPerComparison(variants.length);
  const armOf = (name: string) => {
    const { visitors, installs, events } = counts.get(name) ?? NONE;
    return { visitors, outcomes: Math.min(visitors, event === null ? installs : events) };
  };
  const control = variants[0]?.name ?? '';
  const arms = variants.map(({ name, weight }, index): ExperimentArm => {
    const { visitors, installs, events } = counts.get(name) ?? NONE;
    const verdict = index === 0 ? null : verdictOf(armOf(control), armOf(name), { control, variant: name }, alpha);
    return { name, weight, visitors, installs, events, verdict };
  });
  return { slug, outcome: event === null ? 'installs' : `event:${event}`, alpha, arms };
}
