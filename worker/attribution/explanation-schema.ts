/**
 * The explanation of an answer (shared/install-explanation.ts) as a schema, held by the compiler to
 * the shared type: the OpenAPI document describes it from here, and `explainView` adds its sentences.
 */
import * as v from 'valibot';
import {
  type Explanation,
  explanationLines,
  type NetworkReport,
  TUPLE_FIELDS,
} from '../../shared/install-explanation.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const CarrierCheckSchema = v.strictObject({
  source: v.picklist(['apk', 'harmonyLink', 'playReferrer', 'appGallery', 'clipboard', 'link', 'metaReferrer']),
  verdict: v.picklist([
    'used',
    'unused',
    'not-a-carrier',
    'bad-click-id',
    'bad-signature',
    'unissued',
    'claimed',
    'no-key',
    'expired',
    'earlier',
  ]),
  tapRecorded: v.optional(v.boolean()),
});

const NetworkReportSchema = v.variant('outcome', [
  v.strictObject({ outcome: v.literal('no-network') }),
  v.strictObject({ outcome: v.literal('consent') }),
  v.strictObject({
    outcome: v.picklist(['matched', 'ambiguous', 'none', 'expired']),
    windowMinutes: count,
    taps: count,
    candidates: count,
    people: count,
    spanMinutes: count,
    ageMinutes: v.nullable(count),
    expired: count,
    differ: v.strictObject(Object.fromEntries(TUPLE_FIELDS.map((field) => [field, v.optional(count)]))),
    remembered: v.optional(v.boolean()),
  }),
]) satisfies v.GenericSchema<NetworkReport>;

export const ExplanationSchema = v.strictObject({
  carriers: v.array(CarrierCheckSchema),
  network: v.nullable(NetworkReportSchema),
}) satisfies v.GenericSchema<Explanation>;

/** The explanation as the API shows it: the facts, and the same in English sentences. */
export const ExplainViewSchema = v.strictObject({
  ...ExplanationSchema.entries,
  summary: v.array(v.string()),
});
export type ExplainView = v.InferOutput<typeof ExplainViewSchema>;

/** `explanation` with its English sentences, for an API answer. */
export const explainView = (explanation: Explanation): ExplainView => ({
  ...explanation,
  summary: explanationLines(explanation),
});
