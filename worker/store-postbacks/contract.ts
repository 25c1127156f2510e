/**
 * What Apple posts to a developer's copy endpoints (docs/store-postbacks.md), checked before any
 * signature is: SKAdNetwork's install-validation postback and AdAttributionKit's JWS stanza and
 * payload, with the fields the signature and the aggregates need. Unknown fields are let through
 * (Apple adds them between versions) and never kept.
 */
import * as v from 'valibot';
import type { StorePostbackGroup } from '../../shared/store-postbacks.ts';

/** The largest postback body accepted; Apple's are well under 2 kB. */
export const MAX_POSTBACK_BYTES = 16 * 1024;

/**
 * An id Apple sends as a JSON number (app ids, campaign ids): a non-negative safe integer, or its
 * digits as a string; kept as the decimal text the signature is computed over.
 */
const NON_NEGATIVE = 'must be a non-negative integer';
const AppleNumber = v.pipe(
  v.union(
    [
      v.pipe(v.number(), v.safeInteger(NON_NEGATIVE), v.minValue(0, NON_NEGATIVE)),
      v.pipe(v.string(), v.regex(/^\d{1,16}$/, NON_NEGATIVE)),
    ],
    NON_NEGATIVE,
  ),
  v.transform(String),
);

const Text = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
  );
const Digits = v.pipe(v.string('must be a string'), v.regex(/^\d{1,4}$/, 'must be 1 to 4 digits'));
const Coarse = v.picklist(['low', 'medium', 'high'], 'must be low, medium or high');
const ConversionValue = v.pipe(
  v.number('must be 0 to 63'),
  v.integer('must be 0 to 63'),
  v.minValue(0, 'must be 0 to 63'),
  v.maxValue(63, 'must be 0 to 63'),
);
const Sequence = v.pipe(v.number('must be 0, 1 or 2'), v.picklist([0, 1, 2], 'must be 0, 1 or 2'));

/** An SKAdNetwork install-validation postback, any version (Apple: "Identifying the parameters…"). */
export const SkanPostbackSchema = v.looseObject({
  version: v.optional(Text(8)),
  'ad-network-id': Text(256),
  'campaign-id': v.optional(AppleNumber),
  'source-identifier': v.optional(Digits),
  'app-id': AppleNumber,
  'transaction-id': Text(128),
  redownload: v.optional(v.boolean('must be true or false')),
  'source-app-id': v.optional(AppleNumber),
  'source-domain': v.optional(Text(253)),
  'fidelity-type': v.optional(AppleNumber),
  'did-win': v.optional(v.boolean('must be true or false')),
  'postback-sequence-index': v.optional(Sequence),
  'conversion-value': v.optional(ConversionValue),
  'coarse-conversion-value': v.optional(Coarse),
  'attribution-signature': v.optional(v.string('must be a string')),
});
export type SkanPostback = v.InferOutput<typeof SkanPostbackSchema>;

/** AdAttributionKit's stanza: the signed JWS and the unsigned values beside it. */
export const AakStanzaSchema = v.looseObject({
  'jws-string': v.optional(v.pipe(v.string('must be a string'), v.maxLength(8192, 'is too long'))),
  'conversion-value': v.optional(ConversionValue),
  'coarse-conversion-value': v.optional(Coarse),
  'ad-interaction-type': v.optional(v.picklist(['click', 'view'], 'must be click or view')),
  'country-code': v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'must be two capital letters'))),
});
export type AakStanza = v.InferOutput<typeof AakStanzaSchema>;

/** The payload Apple signed in an AdAttributionKit JWS. */
export const AakPayloadSchema = v.looseObject({
  'postback-identifier': Text(128),
  'ad-network-identifier': Text(256),
  'source-identifier': Digits,
  'advertised-item-identifier': AppleNumber,
  'publisher-item-identifier': v.optional(AppleNumber),
  'marketplace-identifier': v.optional(Text(256)),
  'conversion-type': v.optional(Text(32)),
  'did-win': v.boolean('must be true or false'),
  'postback-sequence-index': Sequence,
});
export type AakPayload = v.InferOutput<typeof AakPayloadSchema>;

/**
 * A verified postback as it is counted: its id and the aggregates Apple gave, nothing else — the
 * fields of a counted group (shared/store-postbacks.ts) but the day and count, which storage adds.
 */
export type VerifiedPostback = Omit<StorePostbackGroup, 'day' | 'postbacks'> & {
  /** `transaction-id` / `postback-identifier`: a resent postback has the same one. */
  id: string;
  adNetwork: string;
  appId: string;
};

/** `GET /api/store-postbacks`'s query: `since`, a number of days (`7d`) or a first day (`YYYY-MM-DD`). */
export const StorePostbacksQuerySchema = v.object({
  since: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(\d{1,3}d|\d{4}-\d{2}-\d{2})$/, 'since: must be a day, YYYY-MM-DD, or a number of days, 7d'),
    ),
  ),
});
