/**
 * `GET /api/store-postbacks`'s answer (docs/store-postbacks.md): the aggregates Apple's signed
 * postbacks carry, per day, as the worker gives them and the console reads them. The answer is a
 * schema, not only types: the OpenAPI document is generated from it (worker/openapi/document.ts), so
 * the types below, the worker's rows and the document cannot drift apart.
 */
import * as v from 'valibot';

/** Which of Apple's frameworks sent a postback. */
export const STORE_POSTBACK_KINDS = ['skadnetwork', 'adattributionkit'] as const;
export type StorePostbackKind = (typeof STORE_POSTBACK_KINDS)[number];

/** One group of counted postbacks: the same day, kind and every aggregate Apple gave. */
export const StorePostbackGroupSchema = v.strictObject({
  /** The UTC day the postback was received, `YYYY-MM-DD`. */
  day: v.string(),
  kind: v.picklist(STORE_POSTBACK_KINDS),
  /** SKAdNetwork's `version` (`4.0`, `3.0`, …); `''` for AdAttributionKit. */
  version: v.string(),
  /** `source-identifier` (SKAdNetwork 4, AdAttributionKit) or `campaign-id` (earlier versions). */
  source: v.string(),
  /** `source-app-id` / `publisher-item-identifier`, or `source-domain` for a web ad; `''` when withheld. */
  publisher: v.string(),
  /** The fine `conversion-value` (0–63), when the tier gave one. */
  conversionValue: v.nullable(v.number()),
  /** `coarse-conversion-value`: `low`, `medium` or `high`, when the tier gave one. */
  coarseValue: v.nullable(v.string()),
  /** `postback-sequence-index` (0, 1, 2); 0 for versions before 4. */
  sequenceIndex: v.number(),
  /** `country-code` where present (AdAttributionKit, higher tiers). */
  countryCode: v.nullable(v.string()),
  /** SKAdNetwork's `redownload`, or AdAttributionKit's `conversion-type` of `re-engagement`. */
  reengagement: v.boolean(),
  /** `did-win`: true for the winning attribution (developers' copies always win). */
  won: v.boolean(),
  postbacks: v.number(),
});
export type StorePostbackGroup = v.InferOutput<typeof StorePostbackGroupSchema>;

/** The totals of one day. */
export const StorePostbackDaySchema = v.strictObject({
  day: v.string(),
  skadnetwork: v.number(),
  adattributionkit: v.number(),
});
export type StorePostbackDay = v.InferOutput<typeof StorePostbackDaySchema>;

/** The whole answer. */
export const StorePostbacksViewSchema = v.strictObject({
  /** The first day covered, `YYYY-MM-DD` (UTC), today included up to now. */
  since: v.string(),
  days: v.array(StorePostbackDaySchema),
  groups: v.array(StorePostbackGroupSchema),
});
export type StorePostbacksView = v.InferOutput<typeof StorePostbacksViewSchema>;
