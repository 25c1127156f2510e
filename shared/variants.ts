/**
 * A link's variants (docs/smart-links.md#variants-and-the-sequential-test): up to eight versions of
 * its page, each with its words, image and preview, and a weight. The first is the control every
 * other is compared with. The schema is the contract of the links API, the worker's assignment and
 * the console; the experiment's answer is the contract of `GET /api/links/<slug>/experiment`.
 */
import * as v from 'valibot';
import { VARIANT_NAME } from './link-rules.ts';

/** The most variants a link may carry, the control included. */
export const MAX_VARIANTS = 8;
/** The largest weight of one variant: weights are shares of their sum. */
export const MAX_WEIGHT = 10_000;

const text = (name: string, max: number) =>
  v.optional(
    v.pipe(v.string(), v.regex(/\S/, `${name} is blank`), v.maxLength(max, `${name} is longer than ${max} characters`)),
  );
const httpsUrl = (name: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.maxLength(2048, `${name} is longer than 2048 characters`),
      v.url(`${name} is not a URL`),
      v.regex(/^https:\/\//, `${name} is not an https URL`),
    ),
  );

/** One variant of a link's page. Fields left out show what the page shows without variants. */
export const VariantSchema = v.strictObject({
  /**
   * How the console, the experiment and a rule's `page` action name it: 1 to 32 of A–Z, a–z, 0–9,
   * `_` and `-` (shared/link-rules.ts), unique in the link.
   */
  name: v.pipe(v.string(), v.regex(VARIANT_NAME, 'name is 1 to 32 of A-Z, a-z, 0-9, _ and -')),
  /** Its share of visitors, relative to the other weights (0 stops new visitors getting it). */
  weight: v.pipe(
    v.number('weight is a number'),
    v.integer('weight is a whole number'),
    v.minValue(0, 'weight is below 0'),
    v.maxValue(MAX_WEIGHT, `weight is above ${MAX_WEIGHT}`),
  ),
  headline: text('headline', 120),
  text: text('text', 500),
  image: httpsUrl('image'),
  /** The words of the page's main button. */
  button: text('button', 40),
  preview: v.optional(
    v.strictObject({
      title: text('preview.title', 120),
      description: text('preview.description', 300),
      image: httpsUrl('preview.image'),
    }),
  ),
});
export type Variant = v.InferOutput<typeof VariantSchema>;

/** A link's variants: 2 to 8, names unique, the weights not all 0. The first is the control. */
export const VariantsSchema = v.pipe(
  v.array(VariantSchema),
  v.minLength(2, 'variants are at least 2 (the control and one more)'),
  v.maxLength(MAX_VARIANTS, `variants are at most ${MAX_VARIANTS}`),
  v.check((list) => new Set(list.map(({ name }) => name)).size === list.length, 'variants have a name twice'),
  v.check((list) => list.some(({ weight }) => weight > 0), 'variants have no weight above 0'),
);

/** An app event's name, as the app sends it (docs/operators.md#events). */
const EventName = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9][a-z0-9_.-]{0,39}$/, 'event: names are a-z 0-9 _ . - (at most 40)'),
);

/**
 * A link's experiment: its variants, and the outcome they are judged on — installs, or (`event`) the
 * visitors whose install sent that app event. The body of `PUT /api/links/<slug>/variants`, and what
 * the link keeps.
 */
export const ExperimentSchema = v.strictObject({
  variants: VariantsSchema,
  event: v.optional(v.nullable(EventName), null),
});
export type Experiment = v.InferOutput<typeof ExperimentSchema>;

/** The experiment a link keeps as JSON, or undefined for none or one that no longer reads. */
export function readExperiment(text: string | null | undefined): Experiment | undefined {
  if (!text) return undefined;
  try {
    const parsed = v.safeParse(ExperimentSchema, JSON.parse(text));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** What a page shows of its variant: the variant without its weight. */
export type ShownVariant = Omit<Variant, 'weight'>;

/**
 * The variant a point `u` of [0, 1) falls in when the weights are laid end to end on [0, 1): the
 * assignment's last step (worker/variants/assign.ts draws `u` from a keyed hash of the visitor).
 * A variant of weight 0 is never chosen; the weights must not all be 0.
 */
export function variantAt(weights: readonly number[], u: number): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let reach = 0;
  let last = 0;
  for (const [index, weight] of weights.entries()) {
    if (weight <= 0) continue;
    reach += weight;
    last = index;
    if (u * total < reach) return index;
  }
  // Rounding can leave u·total a hair at or past the total: that is the last weighted variant.
  return last;
}

/** A comparison's verdict (docs/smart-links.md#the-sequential-test). */
export const VerdictSchema = v.variant('kind', [
  v.object({ kind: v.literal('no-winner-yet') }),
  v.object({
    kind: v.literal('winner'),
    /** The variant's name whose rate is higher: the compared variant or the control. */
    winner: v.string(),
    /** The variant's rate over the control's, less 1: 0.12 is 12 % more. */
    lift: v.number(),
    /** The always-valid interval of `lift`, as [low, high]. */
    interval: v.tuple([v.number(), v.number()]),
  }),
]);
export type Verdict = v.InferOutput<typeof VerdictSchema>;

/** One variant's row of the experiment. */
export const ExperimentArmSchema = v.object({
  name: v.string(),
  weight: v.number(),
  visitors: v.number(),
  installs: v.number(),
  /** Visitors who later sent the chosen app event (`outcome`), 0 when none is chosen. */
  events: v.number(),
  /** The variant against the control, on the chosen outcome; null for the control itself. */
  verdict: v.nullable(VerdictSchema),
});
export type ExperimentArm = v.InferOutput<typeof ExperimentArmSchema>;

/** `GET /api/links/<slug>/experiment`'s answer. */
export const ExperimentViewSchema = v.object({
  slug: v.string(),
  /** The outcome judged: `installs`, or `event:<name>`. */
  outcome: v.string(),
  /** The test's level for each comparison (0.05 split over the comparisons). */
  alpha: v.number(),
  arms: v.array(ExperimentArmSchema),
});
export type ExperimentView = v.InferOutput<typeof ExperimentViewSchema>;

/** `GET /api/experiments`'s answer: the experiments of the newest links with variants. */
export const ExperimentsSchema = v.object({ experiments: v.array(ExperimentViewSchema) });
