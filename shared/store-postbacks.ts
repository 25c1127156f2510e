/**
 * `GET /api/store-postbacks`'s answer (docs/store-postbacks.md): the aggregates Apple's signed
 * postbacks carry, per day, as the worker gives them and the console reads them.
 */

/** Which of Apple's frameworks sent a postback. */
export type StorePostbackKind = 'skadnetwork' | 'adattributionkit';

/** One group of counted postbacks: the same day, kind and every aggregate Apple gave. */
export interface StorePostbackGroup {
  /** The UTC day the postback was received, `YYYY-MM-DD`. */
  day: string;
  kind: StorePostbackKind;
  /** SKAdNetwork's `version` (`4.0`, `3.0`, …); `''` for AdAttributionKit. */
  version: string;
  /** `source-identifier` (SKAdNetwork 4, AdAttributionKit) or `campaign-id` (earlier versions). */
  source: string;
  /** `source-app-id` / `publisher-item-identifier`, or `source-domain` for a web ad; `''` when withheld. */
  publisher: string;
  /** The fine `conversion-value` (0–63), when the tier gave one. */
  conversionValue: number | null;
  /** `coarse-conversion-value`: `low`, `medium` or `high`, when the tier gave one. */
  coarseValue: string | null;
  /** `postback-sequence-index` (0, 1, 2); 0 for versions before 4. */
  sequenceIndex: number;
  /** `country-code` where present (AdAttributionKit, higher tiers). */
  countryCode: string | null;
  /** SKAdNetwork's `redownload`, or AdAttributionKit's `conversion-type` of `re-engagement`. */
  reengagement: boolean;
  /** `did-win`: true for the winning attribution (developers' copies always win). */
  won: boolean;
  postbacks: number;
}

/** The totals of one day. */
export interface StorePostbackDay {
  day: string;
  skadnetwork: number;
  adattributionkit: number;
}

/** The whole answer. */
export interface StorePostbacksView {
  /** The first day covered, `YYYY-MM-DD` (UTC), today included up to now. */
  since: string;
  days: StorePostbackDay[];
  groups: StorePostbackGroup[];
}
